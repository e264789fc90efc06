import { join } from "node:path";
import { KIND_WORDS, kindOrError, UnsafePathError } from "../../_safe-write.js";
import { parseRuleListFile } from "../../locate/general-rules.js";
import { builtinPromptsDir, DEFAULT_PROJECT_DIR, resolveCommonPaths } from "../../locate/layers.js";
import { GENERAL_RULES_FILE } from "../../locate/load-layer.js";
import { checkFolders } from "../../options/folders.js";
import {
  type DoorOptions,
  NO_DEADLINE,
  ownFilesOf,
  projectReach,
  readRepoText,
} from "../../repo-files/index.js";
import { builtinHash } from "../../sections/ejected-from.js";
import { parseSectionFile } from "../../sections/load.js";
import { SECTION_NAME } from "../../sections/types.js";
import { VARIANT_NAME } from "../../sections/variants.js";
import { type Diagnostic, SyspromptError } from "../../types.js";
import { keptBasePath } from "../_drift.js";
import type { EjectDiff, EjectDiffOptions, EjectDiffText } from "../types.js";
import { GENERAL_RULES } from "./eject.js";

/**
 * The three texts of an ejected section: the builtin it was copied from (kept
 * by `eject` in `<layer>/.sysprompt/base/`, trusted only when its hash is the
 * one the override records), the builtin now, and the override. The name
 * `general-rules` compares the layer's `general-rules.md` (which `eject rules`
 * copies, with its record in a comment) with the builtin `prompts/rules.md`
 * the same way. Every file is read through the door for repository files,
 * capped, only as a regular file and never through a link at its own name;
 * the project's files (not `user`) within the project, as a render reads its
 * layer: a folder on the way (`.pi`, `.pi/sections`) that leads out of it is
 * refused. A kept text that is refused or does not match is a diagnostic and
 * `builtinThen: null`.
 *
 * @throws SyspromptError when `name` is not a section name, or the layer has
 * no override file of it (`bad-argument`), or the override cannot be read
 * (`bad-argument`, its cause an {@link UnsafePathError}).
 */
export async function diffEjected(options: EjectDiffOptions): Promise<EjectDiff> {
  const { name } = options;
  if (!SECTION_NAME.test(name) && !VARIANT_NAME.test(name)) {
    throw new SyspromptError(
      "bad-argument",
      `"${name}" is not a section name (such as rules, or a variant such as rules@small; general-rules for the list eject rules copies)`,
    );
  }
  const { cwd, agentDir, home } = resolveCommonPaths(options);
  await checkFolders({
    cwd,
    ...(options.agentDir !== undefined ? { agentDir } : {}),
    ...(options.builtinDir !== undefined ? { builtinDir: options.builtinDir } : {}),
  });
  const layerDir = options.user ? agentDir : join(cwd, options.projectDir ?? DEFAULT_PROJECT_DIR);
  const builtinDir = options.builtinDir ?? builtinPromptsDir();
  const diagnostics: Diagnostic[] = [];
  // The project's layer is the project's: read as a render reads it (trusted, within the project).
  // Your layer's files are yours: one in a checkout is read through its door (review rev98a F1).
  const door: DoorOptions = options.user
    ? {
        // No render's trust here (eject reads no project): a checkout's door as a trusted render's.
        own: await ownFilesOf(agentDir, { home, trusted: true, cwd }),
      }
    : { reach: await projectReach({ start: cwd, home, trusted: true, signal: NO_DEADLINE }) };

  const list = name === GENERAL_RULES;
  const overridePath = list
    ? join(layerDir, GENERAL_RULES_FILE)
    : join(layerDir, "sections", `${name}.md`);
  const override = await readOrThrow(overridePath, name, options.user === true, door);
  const recorded = list
    ? parseRuleListFile(override.text, overridePath).ejectedFrom?.hash
    : parseSectionFile(name, override.text, overridePath, options.user ? "user" : "project").section
        ?.ejectedFrom?.hash;

  const builtinPath = list
    ? join(builtinDir, "rules.md")
    : join(builtinDir, "sections", `${name}.md`);
  // The package's own file: no checkout's, no project's.
  const now = await readQuiet(builtinPath, diagnostics, { own: undefined });
  const current = now ? builtinHash(now.text) : undefined;

  let then: EjectDiffText | null = null;
  if (recorded !== undefined) {
    const basePath = keptBasePath(layerDir, name);
    const kept = await readQuiet(basePath, diagnostics, door);
    if (kept && builtinHash(kept.text) === recorded) then = kept;
    else if (now && current === recorded) then = now;
    else if (kept) {
      diagnostics.push({
        level: "warning",
        code: "eject-base-mismatch",
        message: `the kept builtin text does not match the recorded ${recorded} (edited, or from another eject); the builtin as it was is unknown`,
        path: basePath,
      });
    }
  }
  return {
    name,
    ...(recorded !== undefined ? { recorded } : {}),
    ...(current !== undefined ? { current } : {}),
    drifted: recorded !== undefined && current !== recorded,
    builtinThen: then,
    builtinNow: now,
    override,
    diagnostics,
  };
}

/** A text read, or missing, or not read for the reason its diagnostic gives. */
type Read = EjectDiffText | null | { refused: Diagnostic };

/**
 * `path` through the door: never a link or a special file at its own name
 * (even one that stays in the project: `eject` wrote a regular file there),
 * and with `reach` (the project's files) never through a folder link out of
 * the project, as a render's layer is read.
 */
async function readText(path: string, door: DoorOptions): Promise<Read> {
  const kind = await kindOrError(path);
  if (kind instanceof UnsafePathError) return { refused: unsafe(kind) };
  if (kind === "missing") return null;
  if (kind !== "file") {
    const reason = `${KIND_WORDS[kind]}, not a regular file: it is not read`;
    return { refused: unsafe(new UnsafePathError("unsafe-target", path, reason)) };
  }
  const read = await readRepoText(path, door);
  if (read.ok) return { path, text: read.text };
  if (read.reason === "missing") return null;
  const said = read.diagnostics[0];
  return {
    refused: said ?? { level: "warning", code: "unsafe-target", message: "not read", path },
  };
}

function unsafe(error: UnsafePathError): Diagnostic {
  return { level: "warning", code: error.code, message: error.reason, path: error.path };
}

async function readOrThrow(
  path: string,
  name: string,
  user: boolean,
  door: DoorOptions,
): Promise<EjectDiffText> {
  const read = await readText(path, door);
  if (read !== null && "refused" in read) {
    // What is on disk, not the command line: the CLI says it alone and exits 2.
    const cause = new UnsafePathError("unsafe-target", path, read.refused.message);
    throw new SyspromptError("bad-argument", cause.message, { cause });
  }
  if (read === null) {
    const layer = user ? "user" : "project";
    throw new SyspromptError(
      "bad-argument",
      name === GENERAL_RULES
        ? `no general rules of its own in the ${layer} layer (${path}); eject rules copies them with the rules section: sysprompt eject rules${user ? " --user" : ""}`
        : `no override of "${name}" in the ${layer} layer (${path}); copy it first with: sysprompt eject ${name}${user ? " --user" : ""}`,
    );
  }
  return read;
}

/** A file's text, or null when it is missing; a refused or unreadable file is a diagnostic too. */
async function readQuiet(
  path: string,
  diagnostics: Diagnostic[],
  door: DoorOptions,
): Promise<EjectDiffText | null> {
  const read = await readText(path, door);
  if (read === null || !("refused" in read)) return read;
  diagnostics.push(read.refused);
  return null;
}
