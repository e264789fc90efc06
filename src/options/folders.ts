import { join } from "node:path";
import { kindOfPath } from "../_fs.js";
import { statKind } from "../_io.js";
import { NOT_UTF8_PATH } from "../_paths.js";
import { SyspromptError } from "../types.js";

/**
 * Folders the caller named must be there: a typo would otherwise give a
 * prompt for nothing (an empty builtin layer, an empty user layer, a cwd with
 * no project) without a word. Used by `normalizeOptions` and by the CLI
 * commands that load templates and skills.
 *
 * @throws SyspromptError naming the folder and what to pass instead.
 */
export async function checkFolders(folders: {
  cwd?: string;
  agentDir?: string;
  builtinDir?: string;
}): Promise<void> {
  const { cwd, agentDir, builtinDir } = folders;
  const [cwdKind, agentKind, builtinKind] = await Promise.all([
    cwd === undefined ? "dir" : kindOfPath(cwd),
    agentDir === undefined ? "dir" : kindOfPath(agentDir),
    builtinDir === undefined ? "dir" : kindOfPath(join(builtinDir, "sections")),
  ]);
  if (cwdKind !== "dir") {
    throw new SyspromptError(
      "bad-option",
      `cwd: ${cwdKind === "missing" ? await whyMissing(cwd as string) : "not a folder"} at ${cwd}; pass the project's folder`,
    );
  }
  if (agentKind !== "dir") {
    throw new SyspromptError(
      "bad-option",
      `agentDir: ${agentKind === "missing" ? await whyMissing(agentDir as string) : "not a folder"} at ${agentDir}; pass an existing folder, or leave it out for $SYSPROMPT_AGENT_DIR or ~/.pi/agent`,
    );
  }
  if (builtinKind !== "dir") {
    throw new SyspromptError(
      "bad-option",
      `builtinDir: no sections/ folder in ${builtinDir}; pass a folder laid out like the package's prompts/ (sections/, partials/, tools.md, rules.md), or leave it out`,
    );
  }
}

/**
 * Why a folder the caller named cannot be looked at, in the words of its
 * error: a path longer than the system opens (PATH_MAX, 4,096 bytes on
 * Linux) names a folder that may well be there, and "there is no folder"
 * would send the user looking for a typo.
 */
async function whyMissing(path: string): Promise<string> {
  const code = await statKind(path).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code,
  );
  switch (code) {
    case "ENAMETOOLONG":
      return `the path is too long for the system to open (ENAMETOOLONG, ${Buffer.byteLength(path)} bytes)`;
    case "EACCES":
      return "a folder on the way cannot be searched (EACCES)";
    case "ELOOP":
      return "a loop of links (ELOOP)";
    case "ENOTDIR":
      return "a part of the path is not a folder (ENOTDIR)";
    default:
      // A name that is not UTF-8 reaches us with U+FFFD where its bytes were
      // (process.cwd() decodes so), a path no call can open again.
      return path.includes("\uFFFD") ? `${NOT_UTF8_PATH}: no folder` : "there is no folder";
  }
}
