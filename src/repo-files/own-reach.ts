import { join, relative, sep } from "node:path";
import { realpathOrSelf } from "../_fs.js";
import { isWithin, toPosix } from "../_paths.js";
import {
  type HeldWalk,
  heldLinks,
  linkOutRefusal,
  mirroredRepository,
  stopRefusal,
} from "./held-links.js";
import { gitFolderAbove, gitFolderWords } from "./own-private.js";
import { NO_DEADLINE, type PrivateVerdict } from "./private-paths.js";
import { findProjectRoot } from "./project-root.js";
import { checkoutPrivateWords, projectReach, type Reach, type Refusal } from "./reach.js";

/**
 * The real folders whose repositories are yours, for the files of your agent
 * dir ({@link heldLinks}' `own`): your home folder's, and the one your agent
 * dir is or lies in (a `~/.pi/agent` you keep in git, a dotfiles repository
 * stow links it from). Not a repository your agent dir is reached in by a
 * link of yours below your home folder (`~/.pi -> ~/kits/team`, a checkout
 * unpacked from a tarball) that does not mirror your home there: that is a
 * checkout, whose files are read through its door (review rev98a F1).
 */
export async function ownRepositories(agentDir: string, home: string): Promise<string[]> {
  const [realHome, realAgentDir] = await Promise.all([
    realpathOrSelf(home),
    realpathOrSelf(agentDir),
  ]);
  const linked =
    isWithin(agentDir, home) && realAgentDir !== join(realHome, relative(home, agentDir));
  if (!linked) return [realHome, realAgentDir];
  const stowed = await mirroredRepository(agentDir, [home, realHome]);
  return stowed ? [realHome, stowed] : [realHome];
}

/** A file of yours whose real path lies in a checkout: that repository, its door, and the name its door judges. */
export interface Checkout {
  root: string;
  reach: Reach;
  /** The name the path was reached by in the checkout ({@link HeldEnd.spelled}). */
  spelled: string;
}

/** What a file of yours is to the door: yours, a checkout's, or refused on its way. */
export type OwnPlace =
  | { kind: "own" }
  | ({ kind: "checkout" } & Checkout)
  | { kind: "refused"; refusal: Refusal };

/** How the files of yours are placed: the walk over your own repositories, and the render's trust and home. */
export interface OwnFiles {
  walk: HeldWalk;
  home: string;
  /** The agent dir whose files these are ({@link YoursAt.agentDir}). */
  agentDir?: string | undefined;
  /** The render's trust in its project: only that project's checkout, trusted, opens its private files to yours. */
  trusted: boolean;
  /**
   * The folder the render starts in, whose project (the repository holding it) is the render's:
   * the one checkout whose private files a file of yours may lead to, when trusted. Not given:
   * none may ({@link checkoutReach}).
   */
  cwd?: string | undefined;
  /** The environment that moves your private places ({@link YoursAt.env}). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  signal?: AbortSignal | undefined;
}

/** {@link OwnFiles} for the files of your agent dir. */
export async function ownFilesOf(
  agentDir: string,
  o: {
    home: string;
    trusted: boolean;
    cwd?: string | undefined;
    env?: Readonly<Record<string, string | undefined>> | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<OwnFiles> {
  const own = await ownRepositories(agentDir, o.home);
  return { ...o, agentDir, walk: heldLinks(own, { signal: o.signal, packages: true }) };
}

/**
 * Where a file of yours (`path`) lies: walked link by link ({@link heldLinks}),
 * a file whose real path is in a repository not yours (a checkout, an
 * installed package) is that repository's, read through its door rooted
 * there ({@link checkoutReach}: its hard links, its links out and its private
 * paths refused, unless it is the render's trusted project), as an import of
 * a kit file is; a link of another repository's out of it, or a walk given up
 * on, is refused; any other file is yours, read whatever its links. The one
 * test of your agent dir's `AGENTS.md` and of every file of your layer
 * (review rev98a F1).
 */
export async function placeOwnFile(path: string, o: OwnFiles): Promise<OwnPlace> {
  const walked = await o.walk(path);
  if (walked.kind === "link-out") return { kind: "refused", refusal: linkOutRefusal(walked) };
  if (walked.kind === "stopped") return { kind: "refused", refusal: stopRefusal(walked) };
  const root = walked.repository;
  if (root === undefined) return { kind: "own" };
  const git = gitFolderRefusal(walked.real, root);
  if (git) return { kind: "refused", refusal: git };
  // Your dotfiles, stowed file by file (`~/.pi/agent/prompts -> ~/dotfiles/pi/.pi/agent/prompts`):
  // the mirror of your home is yours, its hidden names too; no private check.
  const mirror = await mirroredRepository(path, [o.home, await realpathOrSelf(o.home)]);
  const mirrored = mirror !== undefined && (await realpathOrSelf(mirror)) === root;
  const reach = await checkoutReach(root, { ...o, mirror: mirrored });
  // Reached from your files, never at its own name in the checkout: its private paths (`.env`,
  // what it ignores) are refused, as a link of its own to them would be (rev108b F2), in every
  // render but its own trusted one (rev109a F2).
  const secret = reach.isPrivate && (await reach.isPrivate(walked.real));
  if (secret) return { kind: "refused", refusal: checkoutPrivateRefusal(reach, secret) };
  return { kind: "checkout", root, reach, spelled: walked.spelled };
}

/**
 * The door of a checkout (`root`, a repository not yours) that a file of yours
 * or an import of yours leads into: its private paths (hidden, ignored, your
 * excludes) are checked whatever the render's trust, since the trust a render
 * gives is its own project's, not another checkout's (`/srv/app/.env` linked
 * from a kit, review rev109a F2); only the checkout that is the render's
 * project ({@link OwnFiles.cwd}'s), trusted, is read without, as its own files
 * are. `mirror`: the file is your stowed dotfiles' (no private check).
 */
export async function checkoutReach(
  root: string,
  o: Pick<OwnFiles, "home" | "trusted" | "cwd" | "signal"> & { mirror?: boolean },
): Promise<Reach> {
  const signal = o.signal ?? NO_DEADLINE;
  const open = o.mirror === true || (o.trusted && (await isRenderProject(root, o.cwd, signal)));
  const reach = await projectReach({ start: root, root, home: o.home, trusted: open, signal });
  if (open) return reach;
  const own = !o.trusted && (await isRenderProject(root, o.cwd, signal));
  return own ? reach : { ...reach, notTheProject: true };
}

/** True when `root` is the repository holding `cwd`, the render's project. */
async function isRenderProject(
  root: string,
  cwd: string | undefined,
  signal: AbortSignal,
): Promise<boolean> {
  if (cwd === undefined) return false;
  const realRoot = await realpathOrSelf(root);
  const realCwd = await realpathOrSelf(cwd);
  if (!isWithin(realCwd, realRoot)) return false;
  return (await realpathOrSelf(await findProjectRoot(realCwd, undefined, signal))) === realRoot;
}

/**
 * A file of yours whose real path lies in a checkout's git folder (`.git/config`, with its remote's
 * token): refused, trusted or not; a git folder is never instructions (review rev108b F2). Asked
 * by {@link placeOwnFile} and its synchronous twin. A git folder by another name below the root
 * (a bare mirror `vendor/x.git` the checkout ignores) is known by its contents (review rev109f F2).
 */
export function gitFolderRefusal(real: string, root: string): Refusal | undefined {
  if (!isWithin(real, root)) return undefined;
  const names = relative(root, real).split(sep);
  const at = names.findIndex((name) => name.toLowerCase() === ".git");
  const gitDir = at >= 0 ? join(root, ...names.slice(0, at + 1)) : gitFolderAbove(real, [root]);
  return gitDir === undefined ? undefined : gitFolderWords(real, gitDir);
}

function checkoutPrivateRefusal(reach: Reach, secret: PrivateVerdict): Refusal {
  return {
    reason: "private",
    code: "file-private",
    message: reach.notTheProject
      ? checkoutPrivateWords(reach.root, secret)
      : `the project is not trusted and it resolves to ${secret.rel} in the checkout ${toPosix(reach.root)}, which is ${secret.why}; trust the project to read it`,
  };
}
