import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { kindOfPath, realpathOrSelf } from "../../_fs.js";
import { outputTarget } from "../../_output-target.js";
import { isWithin } from "../../_paths.js";
import { entryKind, UnsafePathError, writeFileNoFollow, writeProblem } from "../../_safe-write.js";
import { realWorkingFolder } from "../../gather/roots.js";
import { ejectedFromComment } from "../../locate/general-rules.js";
import { builtinPromptsDir, DEFAULT_PROJECT_DIR, resolveCommonPaths } from "../../locate/layers.js";
import { GENERAL_RULES_FILE } from "../../locate/load-layer.js";
import { checkFolders } from "../../options/folders.js";
import { builtinHash, withEjectedFrom } from "../../sections/ejected-from.js";
import { listMarkdown } from "../../sections/load.js";
import { SECTION_NAME } from "../../sections/types.js";
import { VARIANT_NAME } from "../../sections/variants.js";
import { type Diagnostic, SyspromptError } from "../../types.js";
import { keptBasePath } from "../_drift.js";
import type { EjectedFile, EjectOptions, EjectResult } from "../types.js";

/** The name {@link ejectSections} gives the general rules' list it copies with `rules`. */
export const GENERAL_RULES = "general-rules";

/**
 * Copies builtin section files, byte for byte, into the project's
 * `<projectDir>/sections/` (or with `user` the agent dir's `sections/`) as a
 * starting point for an override. A section's per-model variants
 * (`rules@small.md`) go with it: a plain copy alone would beat the builtin
 * variant for every model. The rules section also brings the general rules
 * it lists (the builtin `rules.md`), as the layer's `general-rules.md`, so
 * they can be edited there (its builtin text is kept too, as
 * `<layer>/.sysprompt/base/general-rules.md`). Every target is checked before any is written,
 * and then all are written or none: an existing file (unless `force` is set)
 * leaves every file alone and is listed in `skipped`; a link, a folder or a
 * special file at a target, or a link or a file among the folders on its way
 * (a planted `.pi -> /elsewhere`), is an error diagnostic at that path, even
 * with `force`. Files are written by a temporary file and a rename that never
 * follows a link.
 *
 * Each copy records the builtin text it came from as a last frontmatter key,
 * `ejected-from: sha256:<12 hex>`, and that text itself is kept beside the
 * layer's sections (`<layer>/.sysprompt/base/<name>.md`, replaced on each
 * eject), so `check` can say when the builtin moved and `eject --diff` can
 * show the builtin then, the builtin now and the override. A copy renders exactly as the builtin it came from, so
 * ejecting does not change the prompt, except where a user override of the
 * same section is now hidden by the project's copy (reported).
 *
 * @throws SyspromptError when a name is not a builtin section, neither names
 * nor `all` are given, or `cwd` (or an explicit `agentDir`) is not a folder.
 */
export async function ejectSections(options: EjectOptions): Promise<EjectResult> {
  const { cwd, agentDir, home } = resolveCommonPaths(options);
  await checkFolders({
    cwd,
    ...(options.agentDir !== undefined ? { agentDir } : {}),
    ...(options.builtinDir !== undefined ? { builtinDir: options.builtinDir } : {}),
  });
  // The folder written in, placed as a render's: one named through a repository's link that
  // leads out of it is refused, as `-o` through it is (rev58d F4: `eject --cwd vendor-lib`
  // wrote into ~/private/.pi, `--user --agent-dir vendor-lib` into ~/private/sections).
  await (options.user
    ? realWorkingFolder(agentDir, { home, what: "agentDir" })
    : realWorkingFolder(cwd, { home }));
  const builtinDir = options.builtinDir ?? builtinPromptsDir();
  const files = (await listMarkdown(join(builtinDir, "sections"))).names;
  const known = sectionNames(files);
  const names = chooseNames(options, known).flatMap((name) => [
    name,
    ...files
      .map((f) => f.slice(0, -".md".length))
      .filter((f) => f.startsWith(`${name}@`) && VARIANT_NAME.test(f)),
  ]);
  // The project's folders are the repository's: `within` the (trusted) cwd, no link is followed.
  const { layerDir, within, why } = options.user
    ? await userLayer(agentDir, { cwd, home, named: options.agentDir !== undefined })
    : { layerDir: join(cwd, options.projectDir ?? DEFAULT_PROJECT_DIR), within: cwd, why: "" };
  const dir = join(layerDir, "sections");
  const texts = new Map<string, string>();
  const targets: EjectedFile[] = [];
  for (const name of names) {
    const from = join(builtinDir, "sections", `${name}.md`);
    const text = (await readFile(from)).toString("utf8");
    texts.set(name, text);
    targets.push({
      name,
      from,
      path: join(dir, `${name}.md`),
      hash: builtinHash(text),
      base: keptBasePath(layerDir, name),
    });
  }
  // The rules section lists data: its general rules come with it, as the layer's own list.
  if (names.includes("rules")) {
    const from = join(builtinDir, "rules.md");
    const text = (await readFile(from)).toString("utf8");
    texts.set(GENERAL_RULES, text);
    const path = join(layerDir, GENERAL_RULES_FILE);
    const base = keptBasePath(layerDir, GENERAL_RULES);
    targets.push({ name: GENERAL_RULES, from, path, hash: builtinHash(text), base });
  }
  const diagnostics: Diagnostic[] = [];
  const skipped: EjectedFile[] = [];
  // Every target is checked before any is written: all of them or none.
  for (const file of targets) {
    const problem =
      (await writeProblem(file.path, { within })) ?? (await writeProblem(file.base, { within }));
    if (problem) diagnostics.push(refusal(problem, why));
    else if (!options.force && (await entryKind(file.path)) === "file") skipped.push(file);
  }
  const refused = uniqueByPath(diagnostics);
  if (refused.length > 0 || skipped.length > 0)
    return { dir, written: [], skipped, diagnostics: refused };

  const written: EjectedFile[] = [];
  for (const file of targets) {
    const text = texts.get(file.name) ?? "";
    try {
      // A list has no frontmatter: its record is a comment line atop the copy.
      const list = file.name === GENERAL_RULES;
      const copy = list
        ? `${ejectedFromComment(file.hash)}${text}`
        : withEjectedFrom(text, file.hash);
      await writeFileNoFollow(file.path, copy, { within, exclusive: !options.force });
      // After the copy: a copy that was not written leaves the kept text of the one before.
      await writeFileNoFollow(file.base, text, { within });
    } catch (error) {
      if (!(error instanceof UnsafePathError)) throw error;
      // Something appeared or changed since the check: reported, and the rest is not written.
      if (error.code === "target-exists") skipped.push(file);
      else refused.push(refusal(error, why));
      break;
    }
    written.push(file);
    const userCopy =
      file.name === GENERAL_RULES
        ? join(agentDir, GENERAL_RULES_FILE)
        : join(agentDir, "sections", `${file.name}.md`);
    if (!options.user && !file.name.includes("@") && (await kindOfPath(userCopy)) === "file") {
      refused.push({
        level: "warning",
        code: "eject-hides-user",
        message:
          file.name === GENERAL_RULES
            ? `the user layer has its own general rules (${userCopy}); the project's copy of the builtin list now wins over them`
            : `the user layer overrides "${file.name}" (${userCopy}); the project's copy of the builtin now wins over it`,
        path: file.path,
      });
    }
  }
  return { dir, written, skipped, diagnostics: refused };
}

/**
 * Where `eject --user` writes, and the folder below which no folder may be a
 * link. The agent dir is yours: written through your links (`~/.pi` into a
 * dotfiles checkout), below the agent dir itself. But when the folder an
 * output file there would be checked from holds the home folder (a home
 * inside a checkout or an unpacked tree, `HOME=$PWD/.home`, as a CI job or
 * debhelper sets it; see {@link outputTarget}), the agent dir is that
 * project's: it is held as a project target, so a `.home/.pi` the project
 * made a link is refused, not followed. One you name (`agentDir`) is yours.
 */
async function userLayer(
  agentDir: string,
  o: { cwd: string; home: string; named: boolean },
): Promise<{ layerDir: string; within: string; why: string }> {
  const yours = { layerDir: agentDir, within: agentDir, why: "" };
  if (o.named) return yours;
  const probe = await outputTarget(join(agentDir, "sections", "x.md"), o);
  const within = probe.within;
  if (within === undefined) return yours;
  const [realWithin, realHome] = await Promise.all([
    realpathOrSelf(within),
    realpathOrSelf(o.home),
  ]);
  const holds = (w: string, h: string) => w !== h && isWithin(h, w);
  if (!holds(resolve(within), resolve(o.home)) && !holds(realWithin, realHome)) return yours;
  const why = ` (the agent dir ${agentDir} lies in the project around ${within}, as the home folder does: held as the project's folders are; name it with --agent-dir if it is yours)`;
  return { layerDir: dirname(dirname(probe.path)), within, why };
}

function refusal(error: UnsafePathError, why: string): Diagnostic {
  return { level: "error", code: error.code, message: `${error.reason}${why}`, path: error.path };
}

/** A folder on the way that is a link is one problem, not one per file below it. */
function uniqueByPath(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string | undefined>();
  return diagnostics.filter((d) => !seen.has(d.path) && seen.add(d.path));
}

/** The builtin section names, sorted. */
export async function builtinSectionNames(dir: string): Promise<string[]> {
  return sectionNames((await listMarkdown(dir)).names);
}

function sectionNames(files: readonly string[]): string[] {
  return files.map((n) => n.slice(0, -".md".length)).filter((n) => SECTION_NAME.test(n));
}

function chooseNames(options: EjectOptions, known: readonly string[]): string[] {
  const asked = options.names ?? [];
  if (options.all) {
    if (asked.length > 0) {
      throw new SyspromptError("bad-argument", "pass section names or --all (all: true), not both");
    }
    return [...known];
  }
  if (asked.length === 0) {
    throw new SyspromptError(
      "bad-argument",
      `name the sections to copy, or pass --all (all: true); the builtin sections are: ${known.join(", ")}`,
    );
  }
  const unknown = asked.filter((n) => !known.includes(n));
  if (unknown.length > 0) {
    throw new SyspromptError(
      "unknown-section",
      `${unknown.length === 1 ? "no builtin section" : "no builtin sections"} ${unknown.map((n) => `"${n}"`).join(", ")}; the builtin sections are: ${known.join(", ")}`,
    );
  }
  return [...new Set(asked)];
}
