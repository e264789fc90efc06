import { dirname, resolve, sep } from "node:path";
import { realpath } from "../_io.js";
import { toPosix } from "../_paths.js";
import { sharedOnTheWaySync } from "../_shared-way.js";
import {
  agentDirInProject,
  projectOwns,
  SHARED_AGENT_DIR,
  UNREAD_AGENT_DIR,
} from "../gather/environment/index.js";
import { relativeAgentDirWarning } from "../locate/layers.js";
import type { Diagnostic } from "../types.js";
import { sudoUser } from "./owner.js";
import { findProjectRoot, insideRepository } from "./project-root.js";

/** Where a run reads from: its working folder, the home folder, and whether the project is trusted. */
export interface OwnFolderWhere {
  cwd: string;
  home: string;
  trusted: boolean;
  /** Stops the root search around `cwd` (it rejects with the signal's reason): a render's deadline. */
  signal?: AbortSignal | undefined;
}

/**
 * Whether a folder read as yours because of where the home folder is (the
 * default agent dir, `~/.agents/skills`, `~/.claude/rules`) is the untrusted
 * project's instead: it lies in the project around `cwd`, by the one test the
 * agent dir has ({@link agentDirInProject}), as with `HOME` at or inside the
 * checkout. The project wrote it, so its links, followed anywhere as yours,
 * would bring any file of yours into the prompt. A trusted project's is yours.
 */
export async function ownFolderInProject(folder: string, where: OwnFolderWhere): Promise<boolean> {
  return !where.trusted && (await agentDirInProject(folder, where.cwd, where.home, where.signal));
}

/**
 * Why the agent dir is not read as yours, trusted project or not, or
 * undefined when it is: another user could put his own files in it (its
 * `AGENTS.md`, printed as your instructions above the repository's; its
 * sections, rules, skills, templates, config), since it, or a folder on its
 * way from `/` (by the path as written and every link met), is his, or is a
 * folder other users may write to (in a sticky one, `/tmp`, only an entry of
 * another user's): the one walk of the PATH search (`sharedOnTheWay` with
 * `owners`; under `sudo`, the user who ran it counts as you, as for a
 * repository's marker). Review rev77d F2: `--agent-dir` below a 0777 share, and a
 * `$SYSPROMPT_AGENT_DIR` another user made in `/tmp`, were read as yours. A
 * missing agent dir costs the walk to its first missing folder.
 */
export async function sharedAgentDir(agentDir: string): Promise<string | undefined> {
  // Looked up on this thread, not through `_io.ts`: a few lstat calls, and a prompt session's
  // steps are not made to read again by the folders from `/` down, which say nothing of their files.
  const alsoYou = sudoUser();
  // The agent dir itself judged as a folder names are looked up in: sticky or not, one others may
  // write to is shared, since any user may add his own AGENTS.md there (review rev108b F5).
  return sharedOnTheWaySync(resolve(agentDir), { owners: true, folder: "lookups", alsoYou });
}

/** The warning at an agent dir left unread because another user could fill it ({@link sharedAgentDir}'s `why`). */
export function sharedAgentDirDiagnostic(agentDir: string, why: string): Diagnostic {
  return {
    level: "warning",
    code: "agent-dir-shared",
    message: `the agent dir ${toPosix(agentDir)} is not read as your user layer (no context file, rule, section, skill, template or config of it): ${toPosix(why)}, so another user could put his own files there; keep your agent dir in a folder of yours that only you may write to (chmod go-w, or move it, and name it with --agent-dir)`,
    path: agentDir,
  };
}

/** The agent dir to read as yours ({@link ownAgentDir}), and the warning of one left unread because another user could fill it. */
export interface OwnAgentDir {
  dir: string;
  /**
   * The `agent-dir-shared` warning when `dir` is {@link SHARED_AGENT_DIR}: every
   * reader that shows diagnostics (a render's user layer, `list`, `check`,
   * `expand`) says it, once, from here.
   */
  refused?: Diagnostic;
}

/**
 * The agent dir to read as yours: {@link SHARED_AGENT_DIR} (missing, so
 * nothing of it is read) when another user could fill it
 * ({@link sharedAgentDir}), whoever's project it is, with its warning in
 * `refused` (review rev78 fx78b: `list` and `check` left it out silently);
 * {@link UNREAD_AGENT_DIR}
 * when the untrusted project holds it. One you name
 * (`--agent-dir`, the option `agentDir`) is your choice, but not when it lies
 * in the working folder or the project root (as written or by real path; the
 * home folder itself never counts as either): `--agent-dir .` (or `""`, now
 * refused by the CLI) named the project, whose links to `~/.ssh` were then
 * followed as yours (rev53d F1).
 */
export async function ownAgentDir(
  agentDir: string,
  where: OwnFolderWhere & { named: boolean },
): Promise<OwnAgentDir> {
  const shared = await sharedAgentDir(agentDir);
  if (shared !== undefined)
    return { dir: SHARED_AGENT_DIR, refused: sharedAgentDirDiagnostic(agentDir, shared) };
  return { dir: await unsharedAgentDir(agentDir, where) };
}

/** {@link ownAgentDir} of an agent dir no other user could fill. */
async function unsharedAgentDir(
  agentDir: string,
  where: OwnFolderWhere & { named: boolean },
): Promise<string> {
  if (where.trusted) return agentDir;
  if (!where.named)
    return (await ownFolderInProject(agentDir, where)) ? UNREAD_AGENT_DIR : agentDir;
  // By the working folder's real path, as git finds its repository: a cwd named through a link
  // into the repository's subfolder climbed folders outside it and found no root (rev56a F1).
  const real = async (p: string) => realpath(resolve(p)).catch(() => resolve(p));
  const [cwd, home] = await Promise.all([real(where.cwd), real(where.home)]);
  // The project root is a folder from cwd up: it can hold the agent dir only at or above the folder
  // both lie in. Asked there first (a few folders), the search from cwd through a deep chain of the
  // project's folders (slow look-ups spent the render's deadline before your AGENTS.md was read) is
  // made only when a repository is around both.
  const rootMayHold = await insideRepository(
    await sharedFolder(cwd, agentDir),
    undefined,
    where.signal,
  );
  const root = rootMayHold ? await findProjectRoot(cwd, undefined, where.signal) : cwd;
  const folders = [...new Set([resolve(where.cwd), cwd, root])].filter(
    (f) => f !== resolve(where.home) && f !== home,
  );
  return (await projectOwns(folders)(agentDir)) ? UNREAD_AGENT_DIR : agentDir;
}

/** The user layer left out: the agent dir lies in the untrusted project (see `agentDirInProject`). */
export const AGENT_DIR_IN_PROJECT: Diagnostic = {
  level: "warning",
  code: "agent-dir-in-project",
  message:
    "the agent dir lies inside the project (a HOME inside the checkout, a home folder that is a git work tree around a working folder with no repository of its own, or an --agent-dir or $SYSPROMPT_AGENT_DIR in the working folder or the project root), which is not trusted: the project wrote it, so it is not read as your user layer (no context file, rule, section, skill, template or config of it); trust the project, or name an agent dir outside it (under a home folder of yours that is a git work tree, --agent-dir ~/.pi/agent, or SYSPROMPT_AGENT_DIR=~/.pi/agent in the environment, the hook's too: it takes no --agent-dir)",
};

/**
 * Why your user layer is not read, said once by every reader that shows it
 * (a render's user layer, the hook's note: review rev109e F2, where the hook
 * left your rules out in silence): the agent dir the untrusted project holds
 * ({@link AGENT_DIR_IN_PROJECT}), one another user could fill, or a
 * `$SYSPROMPT_AGENT_DIR` ignored (`relativeAgentDirWarning`). Undefined when it is read.
 */
export function agentDirLeftOut(opts: {
  agentDir: string;
  agentDirRefused?: Diagnostic | undefined;
  agentDirGiven: boolean;
  env: Readonly<Record<string, string | undefined>>;
}): Diagnostic | undefined {
  if (opts.agentDir === UNREAD_AGENT_DIR) return AGENT_DIR_IN_PROJECT;
  return opts.agentDirRefused ?? relativeAgentDirWarning(opts.env, opts.agentDirGiven);
}

/** The warning at a folder of yours left unread because the untrusted project holds it. */
export function ownFolderInProjectDiagnostic(folder: string): Diagnostic {
  return {
    level: "warning",
    code: "user-folder-in-project",
    message: `not read as yours: ${toPosix(folder)} lies inside the project (HOME at or inside the checkout), which is not trusted: the project wrote it; trust the project, or set HOME outside it`,
    path: folder,
  };
}

/**
 * The deepest folder that holds both `a` (a real path) and `b`, as written or
 * by real path, whichever is deeper: both lie on `a`'s way up, so asked from
 * it up, a repository holding both by either spelling is found.
 */
async function sharedFolder(a: string, b: string): Promise<string> {
  const real = async (p: string) => realpath(p).catch(() => resolve(p));
  const written = common(resolve(a), resolve(b));
  const byReal = common(await real(a), await real(b));
  return byReal.length > written.length ? byReal : written;
}

function common(a: string, b: string): string {
  let at = a;
  while (!(b === at || b.startsWith(at.endsWith(sep) ? at : at + sep))) {
    const up = dirname(at);
    if (up === at) return at;
    at = up;
  }
  return at;
}
