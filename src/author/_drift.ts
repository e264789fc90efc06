import { join } from "node:path";
import { readTextFile } from "../_fs.js";
import { scanTags } from "../engine/index.js";
import type { LoadedLayer } from "../locate/load-layer.js";
import { builtinHash } from "../sections/ejected-from.js";
import type { SectionFile } from "../sections/types.js";
import type { Diagnostic } from "../types.js";

/**
 * Where `eject` keeps the builtin text it copied, for `eject --diff` to show
 * "the builtin then" after the package has moved on: beside the layer's
 * sections, in the layer's own folder (`.pi/.sysprompt/base/<name>.md`), so
 * it is committed with the override and travels with it to every clone and CI
 * run. A hidden folder, so no loader lists it.
 */
export function keptBasePath(layerDir: string, fileName: string): string {
  return join(layerDir, ".sysprompt", "base", `${fileName}.md`);
}

/** `rules` or `rules@small`: the file name a section file has, without `.md`. */
export function sectionFileName(file: Pick<SectionFile, "name" | "variant">): string {
  return file.variant ? `${file.name}@${file.variant.name}` : file.name;
}

/**
 * Infos for the section files of the user and project layers whose
 * `ejected-from` record no longer matches the builtin of the same file name:
 * the builtin changed since the copy was made, or is gone. A file that uses
 * `{{> base}}` is told nothing: it follows the builtin by design. Info, not
 * warning: the override still renders exactly as written, so the prompt is
 * not wrong; `check --strict` does not fail on it (a package upgrade alone
 * would otherwise break every project's CI).
 *
 * `stop`, asked before each file, ends the comparing (check's budget): the
 * files left are given back in `notCompared`, with nothing said of them.
 */
export async function driftDiagnostics(
  files: readonly SectionFile[],
  builtinDir: string,
  stop: () => boolean = () => false,
): Promise<{ diagnostics: Diagnostic[]; notCompared: string[] }> {
  const recorded: SectionFile[] = [];
  const notCompared: string[] = [];
  for (const file of files) {
    if (file.ejectedFrom === undefined) continue;
    if (notCompared.length > 0 || stop()) notCompared.push(file.source.path ?? "");
    else if (!usesBase(file.body)) recorded.push(file);
  }
  const found = await Promise.all(
    recorded.map(async (file): Promise<Diagnostic | undefined> => {
      const record = file.ejectedFrom;
      if (record === undefined) return undefined;
      const name = sectionFileName(file);
      const now = await currentBuiltinHash(builtinDir, name);
      if (now === record.hash) return undefined;
      const at = {
        path: file.source.path ?? "",
        ...(record.line !== undefined ? { line: record.line } : {}),
      };
      return {
        level: "info",
        code: "section-drift",
        message:
          now === undefined
            ? `the builtin section "${name}" this file was ejected from (${record.hash}) is no longer there; this file is now a section of its own`
            : `the builtin section "${name}" changed since this file was ejected from it (${record.hash}, now ${now}); to see how: sysprompt eject --diff ${name}`,
        ...at,
      };
    }),
  );
  return { diagnostics: found.filter((d): d is Diagnostic => d !== undefined), notCompared };
}

/**
 * An info for each user or project `general-rules.md` that `eject` copied
 * from a builtin list (`rules.md`) that has changed since: like
 * {@link driftDiagnostics} for sections, and for the same reasons an info.
 */
export async function generalRulesDrift(
  layers: readonly Pick<LoadedLayer, "generalRules">[],
  builtinDir: string,
): Promise<Diagnostic[]> {
  const copies = layers.flatMap((l) => (l.generalRules?.ejectedFrom ? [l.generalRules] : []));
  if (copies.length === 0) return [];
  const read = await readTextFile(join(builtinDir, "rules.md"));
  const now = read.ok ? builtinHash(read.text) : undefined;
  return copies.flatMap(({ path, ejectedFrom }) =>
    ejectedFrom === undefined || ejectedFrom.hash === now
      ? []
      : [
          {
            level: "info" as const,
            code: "general-rules-drift",
            message: `the builtin general rules (${join(builtinDir, "rules.md")}) changed since this list was copied from them (${ejectedFrom.hash}, now ${now ?? "gone"}); to see how: sysprompt eject --diff general-rules`,
            path,
            line: ejectedFrom.line,
          },
        ],
  );
}

/** The record of the builtin `<name>.md` as it is now; undefined when there is none. */
export async function currentBuiltinHash(
  builtinDir: string,
  name: string,
): Promise<string | undefined> {
  const read = await readTextFile(join(builtinDir, "sections", `${name}.md`));
  return read.ok ? builtinHash(read.text) : undefined;
}

/**
 * True when the template calls the `base` partial anywhere (`{{> base}}`,
 * `{{~> base}}`, `{{#> base}}`, inside a block; the name bare, quoted or in
 * brackets). Found by the engine's linear scan of the tags, which skips
 * comments, raw blocks and escaped `\{{` as Handlebars does, never by a parse: check ran
 * this for every section carrying `ejected-from:`, and parsing 279 sections
 * of 4,285 tags took 20 s of CPU after check's other limits (issue 24,
 * review rev43d F1). A template that does not parse is read the same way;
 * its syntax error is reported elsewhere.
 */
export function usesBase(body: string): boolean {
  let found = false;
  scanTags(body, (tag) => {
    // `\{{> base}}` is text for Handlebars, not a call.
    if (tag.escaped) return true;
    BASE_CALL.lastIndex = tag.offset;
    found = BASE_CALL.test(body);
    return !found;
  });
  return found;
}

/** A tag, from its `{{`, that calls the partial `base`; sticky: tried at one offset. */
const BASE_CALL = /\{\{~?#?>\s*(?:base(?=[\s}~)])|"base"|'base'|\[base\])/y;
