import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { kindOfPath } from "../_fs.js";
import { builtinPromptsDir, DEFAULT_PROJECT_DIR, resolveCommonPaths } from "../locate/layers.js";
import { checkFolders } from "../options.js";
import { listMarkdown } from "../sections/load.js";
import { SECTION_NAME } from "../sections/types.js";
import { VARIANT_NAME } from "../sections/variants.js";
import { type Diagnostic, SyspromptError } from "../types.js";
import type { EjectedFile, EjectOptions, EjectResult } from "./types.js";

/**
 * Copies builtin section files, byte for byte, into the project's
 * `<projectDir>/sections/` (or with `user` the agent dir's `sections/`) as a
 * starting point for an override. A section's per-model variants
 * (`rules@small.md`) go with it: a plain copy alone would beat the builtin
 * variant for every model. An existing file is left alone unless
 * `force` is set. A copy renders exactly as the builtin it came from, so
 * ejecting does not change the prompt, except where a user override of the
 * same section is now hidden by the project's copy (reported).
 *
 * @throws SyspromptError when a name is not a builtin section, neither names
 * nor `all` are given, or `cwd` (or an explicit `agentDir`) is not a folder.
 */
export async function ejectSections(options: EjectOptions): Promise<EjectResult> {
  const { cwd, agentDir } = resolveCommonPaths(options);
  await checkFolders({
    cwd,
    ...(options.agentDir !== undefined ? { agentDir } : {}),
    ...(options.builtinDir !== undefined ? { builtinDir: options.builtinDir } : {}),
  });
  const builtinDir = options.builtinDir ?? builtinPromptsDir();
  const files = (await listMarkdown(join(builtinDir, "sections"))).names;
  const known = sectionNames(files);
  const names = chooseNames(options, known).flatMap((name) => [
    name,
    ...files
      .map((f) => f.slice(0, -".md".length))
      .filter((f) => f.startsWith(`${name}@`) && VARIANT_NAME.test(f)),
  ]);
  const dir = options.user
    ? join(agentDir, "sections")
    : join(cwd, options.projectDir ?? DEFAULT_PROJECT_DIR, "sections");

  await mkdir(dir, { recursive: true });
  const written: EjectedFile[] = [];
  const skipped: EjectedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const name of names) {
    const file: EjectedFile = {
      name,
      from: join(builtinDir, "sections", `${name}.md`),
      path: join(dir, `${name}.md`),
    };
    const bytes = await readFile(file.from);
    try {
      // "wx" fails on an existing file, so a file that appears meanwhile is not overwritten either.
      await writeFile(file.path, bytes, { flag: options.force ? "w" : "wx" });
      written.push(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      skipped.push(file);
      continue;
    }
    const userCopy = join(agentDir, "sections", `${name}.md`);
    if (!options.user && !name.includes("@") && (await kindOfPath(userCopy)) === "file") {
      diagnostics.push({
        level: "warning",
        code: "eject-hides-user",
        message: `the user layer overrides "${name}" (${userCopy}); the project's copy of the builtin now wins over it`,
        path: file.path,
      });
    }
  }
  return { dir, written, skipped, diagnostics };
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
