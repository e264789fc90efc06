import { basename, join } from "node:path";
import { pushAll } from "../_arrays.js";
import { isEditorTemp } from "../_editor-temp.js";
import { parseFrontmatter } from "../_frontmatter.js";
import { checkpoint } from "../_pace.js";
import {
  listProjectFolder,
  type OwnFiles,
  type Reach,
  type RepoText,
  readRepoTexts,
} from "../repo-files/index.js";
import type { Diagnostic, Layer } from "../types.js";
import { EJECTED_FROM_KEY } from "./ejected-from.js";
import { readSectionMeta } from "./meta.js";
import { CUSTOM_PROMPT_SECTION, SECTION_NAME, type SectionFile } from "./types.js";
import { readVariantModels, VARIANT_NAME } from "./variants.js";

/**
 * Parses one section file's text. Never touches the disk. Bad frontmatter
 * means the file is ignored (returns no section) with a located diagnostic.
 * A `name` with `@` (`rules@small`) is a variant of the section before the
 * `@`: without a usable `models:` list it is ignored too.
 */
export function parseSectionFile(
  name: string,
  text: string,
  path: string,
  layer: Layer,
): { section?: SectionFile; diagnostics: Diagnostic[] } {
  const at = name.indexOf("@");
  const base = at < 0 ? name : name.slice(0, at);
  const variantName = at < 0 ? undefined : name.slice(at + 1);
  const doc = parseFrontmatter(text, path, { remember: layer === "builtin" });
  if (!doc.ok) {
    return {
      diagnostics: doc.diagnostics.map((d) => ({
        ...d,
        // The shared parser would read an unclosed block as text; a section file is ignored instead.
        message: `${d.message.replace(/; read as plain text$/, "")}; section file ignored`,
      })),
    };
  }
  const { meta, diagnostics, ejectedFrom } = readSectionMeta(doc.data, path, {
    variant: variantName !== undefined,
    keyLines: doc.keyLines,
  });
  let variant: SectionFile["variant"];
  if (variantName !== undefined) {
    const read = readVariantModels(doc.data, path, doc.keyLines.get("models"));
    if (!read.models) return { diagnostics: [...doc.diagnostics, ...read.diagnostics] };
    variant = { name: variantName, models: read.models };
  }
  if (Object.keys(doc.data).length === 0 && doc.body.trim() === "") {
    // An empty file once blanked the section below it; now it keeps that body.
    diagnostics.push({
      level: "info",
      code: "section-empty",
      message:
        "section file is empty and changes nothing (a blank body keeps the body below it); to switch a section off, set enabled: false",
      path,
    });
  }
  return {
    section: {
      name: base,
      meta,
      body: doc.body,
      bodyLine: doc.bodyLine,
      source: variant ? { layer, path, variant: variant.name } : { layer, path },
      ...(variant ? { variant } : {}),
      ...(ejectedFrom !== undefined ? { ejectedFrom: located(ejectedFrom, doc.keyLines) } : {}),
    },
    diagnostics: [...doc.diagnostics, ...diagnostics],
  };
}

function located(hash: string, keyLines: ReadonlyMap<string, number>) {
  const line = keyLines.get(EJECTED_FROM_KEY);
  return line === undefined ? { hash } : { hash, line };
}

/**
 * Reads every `<name>.md` in `dir` (sorted by name). A missing folder is
 * simply no sections; an invalid file name or an unreadable file is a
 * diagnostic. With `reach` (a project's layer), each file is read through the
 * door within it. `signal` stops the listing (see {@link listMarkdown}) and
 * the parsing, between two files: each parse is synchronous, and 8 MiB of
 * dense YAML frontmatter parse for tens of seconds.
 */
export async function loadSectionsFromDir(
  dir: string,
  layer: Layer,
  reach?: Reach,
  signal?: AbortSignal,
  own?: OwnFiles,
): Promise<{ sections: SectionFile[]; diagnostics: Diagnostic[] }> {
  const { names: files, diagnostics } = await listMarkdown(dir, signal, reach);
  const sections: SectionFile[] = [];
  // The names are checked first: a file with a name no section can have is not read.
  const refused = files.map((file) => nameProblem(dir, file));
  const kept = files.filter((_, i) => !refused[i]);
  const { texts, cut, paths } = await readLayerFiles(dir, kept, reach, own);
  const read = new Map(kept.map((file, i) => [file, { text: texts[i], path: paths[i] }]));
  // Each file's diagnostics in the folder's order, as the names were listed.
  for (const [i, file] of files.entries()) {
    const problem = refused[i];
    if (problem) diagnostics.push(problem);
    const { text, path } = read.get(file) ?? {};
    if (!text || path === undefined) continue;
    pushAll(diagnostics, text.diagnostics);
    if (!text.ok) continue;
    if (signal) await checkpoint(signal);
    const parsed = parseSectionFile(file.slice(0, -".md".length), text.text, path, layer);
    if (parsed.section) sections.push(parsed.section);
    pushAll(diagnostics, parsed.diagnostics);
  }
  if (cut) diagnostics.push(cut);
  return { sections, diagnostics };
}

/**
 * Characters one layer folder's files (`sections/`, `partials/`) give at
 * most together: the files after the one that passes it are not read. A
 * layer holds some dozens of small files; each may be 1 MiB, and 999 links
 * to one such file took a render 11 s and 1.1 GB.
 */
export const MAX_LAYER_FOLDER_CHARS = 8 * 1024 * 1024;

/**
 * The files `names` of a layer folder, read through the door in order until
 * they hold {@link MAX_LAYER_FOLDER_CHARS} together, and the warning that
 * says how many were left unread. `paths`: each name's path in `dir`, in the
 * order of `names` (a read's `real` is where links led).
 */
export async function readLayerFiles(
  dir: string,
  names: readonly string[],
  reach: Reach | undefined,
  own?: OwnFiles,
): Promise<{ texts: RepoText[]; cut?: Diagnostic; paths: string[] }> {
  const paths = names.map((n) => join(dir, n));
  const { reads, notRead } = await readRepoTexts(paths, { reach, own }, MAX_LAYER_FOLDER_CHARS);
  if (notRead === 0) return { texts: reads, paths };
  const cut: Diagnostic = {
    level: "warning",
    code: "layer-folder-total-cut",
    message: `the files here hold more than ${MAX_LAYER_FOLDER_CHARS / (1024 * 1024)} MiB together: the last ${notRead} ${notRead === 1 ? "file is" : "files are"} not read`,
    path: dir,
  };
  return { texts: reads, cut, paths };
}

/** Why the section file `file` of `dir` is not read for its name, or undefined when its name is a section's. */
function nameProblem(dir: string, file: string): Diagnostic | undefined {
  const name = file.slice(0, -".md".length);
  // The path is joined only for a problem: most names have none, and a start joins enough paths.
  const problem = (message: string, code: string): Diagnostic => ({
    level: "warning",
    code,
    message,
    path: join(dir, file),
  });
  if (name.includes("@") && !VARIANT_NAME.test(name)) {
    return problem(
      `"${file}" is not a valid variant file name (${VARIANT_NAME.source} plus .md, such as rules@small.md); ignored`,
      "variant-name",
    );
  }
  const section = name.split("@")[0] ?? name;
  if (!name.includes("@") && !SECTION_NAME.test(name)) {
    return problem(
      `"${file}" is not a valid section file name (${SECTION_NAME.source} plus .md); ignored`,
      "section-name",
    );
  }
  if (section === CUSTOM_PROMPT_SECTION) {
    return problem(
      `"${section}" is the name of the custom base prompt, not a section; to replace the base prompt, use SYSTEM.md or SYSTEM_TEMPLATE.md beside the sections folder; ignored`,
      "section-name",
    );
  }
  return undefined;
}

/**
 * Entries of one layer folder (`sections/`, `partials/`) listed at most: a
 * layer holds some dozens of files, and each other entry is a diagnostic.
 */
export const MAX_LAYER_FOLDER_ENTRIES = 1000;

/**
 * Sorted `.md` entries of a folder. Any other entry (`rules.txt`, `rules.MD`,
 * a sub-folder) is an `info` diagnostic, since it is not read; hidden
 * entries and editors' files (`.DS_Store`, `rules.md~`, `#rules.md#`, vim's
 * `4913`) pass in silence. A
 * missing folder is the normal case for a layer and gives nothing; any other
 * failure (not a folder, no permission) gives a diagnostic. Once `signal`
 * fires, the listing stops and the promise rejects with its reason. With
 * `reach` (a project's layer), a folder the door would not read in (a link
 * out of the project, to `~/.ssh`) is refused at the folder with the door's
 * words, before it is listed, as a project's `.pi/rules` and skills folders
 * are: no name of yours there is printed (decided, review rev82a F4).
 */
export async function listMarkdown(
  dir: string,
  signal?: AbortSignal,
  reach?: Reach,
): Promise<{ names: string[]; diagnostics: Diagnostic[] }> {
  // Checked and listed through one held folder: a link swapped in after the check is never listed (rev88a F2).
  const listing = await listProjectFolder(dir, reach, {
    maxEntries: MAX_LAYER_FOLDER_ENTRIES,
    signal,
  });
  if ("refused" in listing) return { names: [], diagnostics: [listing.refused] };
  if ("error" in listing) {
    if (listing.error.code === "ENOENT") return { names: [], diagnostics: [] };
    return {
      names: [],
      diagnostics: [
        {
          level: "warning",
          code: "dir-unreadable",
          message: `cannot list folder: ${listing.error.message}`,
          path: dir,
        },
      ],
    };
  }
  if (listing.capped) {
    return {
      names: [],
      diagnostics: [
        {
          level: "warning",
          code: "layer-folder-too-large",
          message: `more than ${MAX_LAYER_FOLDER_ENTRIES} entries in one folder: none of them read`,
          path: dir,
        },
      ],
    };
  }
  const entries = listing.entries.map((e) => e.name);
  return {
    names: entries.filter((n) => n.endsWith(".md")),
    diagnostics: entries.filter(isIgnoredByMistake).map((n) => ignoredEntry(dir, n)),
  };
}

/** Not read, and not obviously meant to be left out (hidden files, an editor's own files). */
function isIgnoredByMistake(name: string): boolean {
  return !name.endsWith(".md") && !name.startsWith(".") && !isEditorTemp(name);
}

function ignoredEntry(dir: string, name: string): Diagnostic {
  const stem = name.slice(0, -".md".length);
  return {
    level: "info",
    code: "ignored-file",
    message: name.toLowerCase().endsWith(".md")
      ? `ignored: only names ending in ".md" (lower case) are read; rename it to ${stem}.md`
      : `ignored: only .md files directly in ${basename(dir)}/ are read`,
    path: join(dir, name),
  };
}
