// The instruction file names, shared by the context step, on-touch delivery,
// the tree's nested list and watch. A module of its own, so that the tree and
// watch do not load the context step to read them.

import { relative, sep } from "node:path";
import { leavesFolder, toPosix } from "../_paths.js";
import type { PrivateVerdict } from "../repo-files/index.js";

/** In each folder the first regular file among these is its context file. */
export const CONTEXT_FILE_NAMES: readonly string[] = [
  "AGENTS.override.md",
  "AGENTS.md",
  "AGENTS.MD",
  "CLAUDE.md",
  "CLAUDE.MD",
];

/**
 * The names a nested folder is searched for when none are given, in the
 * precedence on-touch delivery uses: the context file names, then Gemini
 * CLI's default name.
 */
export const NESTED_CONTEXT_NAMES: readonly string[] = [...CONTEXT_FILE_NAMES, "GEMINI.md"];

/**
 * The names a nested folder is searched for, given `sessionNames`, the names
 * in force in the working folder's project (the defaults, or those its
 * `.gemini/settings.json` sets): those inside that project, only the
 * defaults ({@link NESTED_CONTEXT_NAMES}) inside a repository of its own
 * below it (`inOtherRepository`: a clone made in a framework's `plugins/`,
 * a submodule), whose folders a hostile checkout's settings never name a
 * file of (decided, review rev101a F1: `["config.py"]` gave your nested
 * plugin's `config.py` to the model on touch, and the tree listed it). On
 * touch and in the tree's `dir_context` alike.
 */
export function folderContextNames(
  sessionNames: readonly string[],
  inOtherRepository: boolean,
): readonly string[] {
  return inOtherRepository ? NESTED_CONTEXT_NAMES : sessionNames;
}

/**
 * Every name a walk looks a folder up for (`sessionNames`, then the defaults
 * they left out), so one listing serves a folder of either kind
 * ({@link folderContextNames}).
 */
export function lookedUpContextNames(sessionNames: readonly string[]): readonly string[] {
  return [...new Set([...sessionNames, ...NESTED_CONTEXT_NAMES])];
}

/**
 * Why a file found by a name `context.fileName` set may not be read for
 * being hidden: a name on its path below `realRoot`, the top of the settings
 * file's own project (on touch the session's root, also where a folder below
 * it is its own project: review rev102c F2), as found (`path`) or real
 * (`real`), starts with a dot (`.aws/credentials` for
 * `["credentials"]`), trusted or not: a setting names the repository's
 * instructions, never a file kept in a hidden folder, where a clone keeps
 * your keys (decided, review rev101a F2: on touch only the name itself was
 * checked, and a trusted project's settings gave `.aws/credentials` to the
 * model). The render's rules step, on-touch delivery and the workspace tree's
 * list all ask this one test, before the door's own checks: it holds trusted
 * or not, so its words name no trust that would read it (rev104a F5).
 */
export function settingsNamedHidden(
  path: string,
  real: string,
  realRoot: string,
): PrivateVerdict | undefined {
  for (const at of [path, real]) {
    const rel = relative(realRoot, at);
    if (rel === "" || leavesFolder(rel)) continue;
    if (rel.split(sep).some((name) => name.startsWith("."))) {
      return { rel: toPosix(rel), why: "hidden (a name that starts with a dot)" };
    }
  }
  return undefined;
}

/** The words of {@link settingsNamedHidden}'s refusal, after "not read: " or "not loaded: ". */
export function settingsNamedWords(verdict: PrivateVerdict): string {
  return `${verdict.rel} is ${verdict.why}, and a name .gemini/settings.json sets never names such a file`;
}
