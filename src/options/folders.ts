import { join } from "node:path";
import { kindOfPath } from "../_fs.js";
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
      `cwd: ${cwdKind === "missing" ? "there is no folder" : "not a folder"} at ${cwd}; pass the project's folder`,
    );
  }
  if (agentKind !== "dir") {
    throw new SyspromptError(
      "bad-option",
      `agentDir: ${agentKind === "missing" ? "there is no folder" : "not a folder"} at ${agentDir}; pass an existing folder, or leave it out for $SYSPROMPT_AGENT_DIR or ~/.pi/agent`,
    );
  }
  if (builtinKind !== "dir") {
    throw new SyspromptError(
      "bad-option",
      `builtinDir: no sections/ folder in ${builtinDir}; pass a folder laid out like the package's prompts/ (sections/, partials/, tools.md, rules.md), or leave it out`,
    );
  }
}
