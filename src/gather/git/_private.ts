import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openedPath, openHeldFolder } from "../../_io.js";
import type { Diagnostic } from "../../types.js";
import type { Repository } from "./_repository.js";

/**
 * The git folder `git status` and `git log` are given: a folder of
 * sysprompt's own (`GIT_DIR`, made 0700 in `/dev/shm` or the temporary folder), holding a
 * `config` sysprompt writes from the settings read once from the repository
 * (its format and object format, the file-mode and line-ending settings, the
 * branch's upstream: no filter, fsmonitor, hook or include), `HEAD` and
 * `packed-refs` with the commit ids read once from the judged git folder, the
 * repository's `info/exclude` and `info/attributes` copied, and after them
 * `* -filter`: the attributes file git ranks first, so no path has a filter
 * driver whatever the work tree's `.gitattributes` or any config says. The
 * index and the objects are read through the git folders held open since
 * they were judged (`/proc/self/fd/N` in git): a `.git` or `.git/config`
 * swapped after the judging is never read (decided, review rev92a F6, F7).
 */
export interface PrivateGit {
  /** Variables added to git's environment. */
  env: Record<string, string>;
  /** Descriptors git inherits, as its 3, 4, … ({@link ProbeRunner}'s `fds`). */
  fds: number[];
  /** Closes the descriptors and removes the folder. */
  close: () => void;
}

/** A git folder held open, or (no `/proc`) named by its judged real path. */
interface Held {
  real: string;
  /** `/proc/self/fd/N`, or `real` where the system cannot hold it. */
  at: string;
  fd: number | undefined;
  close: () => void;
}

/** The judged repository's folders held open, and what `HEAD` says. */
export interface HeldRepository {
  repository: Repository;
  gitDir: Held;
  commonDir: Held;
  /** `ref: <name>` target, or undefined when `HEAD` holds a commit id. */
  branchRef: string | undefined;
  /** Why `HEAD` cannot be given to git, if it cannot. */
  problem?: Refused;
  /** The commit id `HEAD` holds (detached), or undefined. */
  detached: string | undefined;
  close: () => void;
}

type Refused = { diagnostic: Diagnostic };

/** A ref file or `HEAD` larger than this is not a ref. */
const MAX_REF_BYTES = 4096;
/** `packed-refs` read whole up to this; past it the repository is refused. */
const MAX_PACKED_REFS_BYTES = 64 * 1024 * 1024;
/** `info/exclude` and `info/attributes` copied up to this; past it the repository is refused. */
const MAX_INFO_BYTES = 1024 * 1024;
/** Symbolic refs followed this deep (git's own limit is 5). */
const MAX_SYMREF_DEPTH = 5;

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Extensions whose meaning the private folder keeps: git's own list for the format it reads. */
const KNOWN_EXTENSIONS = new Set(["objectformat", "worktreeconfig", "noop", "preciousobjects"]);

/** Settings copied from the repository's config: values only, none names a program or a file. */
const CARRIED = new Set([
  "core.filemode",
  "core.ignorecase",
  "core.symlinks",
  "core.precomposeunicode",
  "core.protecthfs",
  "core.protectntfs",
  "core.autocrlf",
  "core.eol",
  "core.safecrlf",
  "core.checkstat",
  "core.trustctime",
  "status.renames",
  "status.renamelimit",
  "diff.renames",
  "diff.renamelimit",
]);

/** Private folders not yet removed: removed on the way out when a render stopped waiting for git. */
const live = new Set<string>();
let exitHookInstalled = false;

function removeLive(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

/**
 * Where the private folders are made: the memory file system `/dev/shm` on
 * Linux (the folder is made 0700 with a random name, as `mkdtemp` makes it),
 * else the temporary folder. A few small files written and removed at each
 * render cost milliseconds on a busy disk, none in memory.
 */
function privateParent(): string {
  if (
    process.platform === "linux" &&
    statSync("/dev/shm", { throwIfNoEntry: false })?.isDirectory()
  ) {
    return "/dev/shm";
  }
  return tmpdir();
}

/** The private folder could not be made or written (a full or read-only temporary folder). */
function cannotMake(error: unknown): Refused {
  const code = (error as NodeJS.ErrnoException).code ?? "an error";
  return refused("git-failed", `sysprompt's own git folder could not be made (${code})`);
}

function refused(code: string, message: string, path?: string): Refused {
  return {
    diagnostic: {
      level: "warning",
      code,
      message: `${message}; the git section is left out`,
      ...(path !== undefined ? { path } : {}),
    },
  };
}

function hold(real: string): Held | Refused {
  let held: ReturnType<typeof openHeldFolder>;
  try {
    // Its real path was judged: a link there now is a swap.
    held = openHeldFolder(real, false);
  } catch {
    return refused("git-outside", "the git folder changed since it was checked", real);
  }
  if (held === undefined) return { real, at: real, fd: undefined, close: () => {} };
  if (held.real !== real) {
    held.close();
    return refused("git-outside", "the git folder changed since it was checked", real);
  }
  const fd = Number(held.at.slice("/proc/self/fd/".length));
  return { real, at: held.at, fd, close: held.close };
}

/**
 * Opens `name` in the held folder without following a final link and checks
 * the file opened lies at `held.real/name` (a folder on the way swapped for a
 * link since the judging shows here). Undefined: missing.
 */
function openIn(held: Held, name: string): number | undefined | Refused {
  const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = constants;
  let fd: number;
  try {
    fd = openSync(`${held.at}/${name}`, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    return refused("git-refused", `${name} in the git folder cannot be read (${code})`, held.real);
  }
  const stats = fstatSync(fd);
  const opened = held.fd === undefined ? undefined : openedPath(fd);
  if (!stats.isFile() || (held.fd !== undefined && opened !== join(held.real, name))) {
    closeSync(fd);
    // A folder or a FIFO is no ref (git takes it as missing); a file elsewhere is a swap.
    if (!stats.isFile()) return undefined;
    return refused(
      "git-outside",
      `${name} is no longer inside the git folder that was checked (a folder on its way was replaced)`,
      held.real,
    );
  }
  return fd;
}

/** The text of `name` in the held folder, at most `cap` bytes; undefined: missing. */
function readIn(held: Held, name: string, cap: number): string | undefined | Refused {
  const fd = openIn(held, name);
  if (fd === undefined || typeof fd === "object") return fd;
  try {
    if (fstatSync(fd).size > cap) {
      return refused("git-refused", `${name} is over ${cap} bytes`, join(held.real, name));
    }
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Holds the judged git folders open and reads `HEAD` from them, once. */
export function holdRepository(repository: Repository): HeldRepository | Refused {
  const gitDir = hold(repository.gitDir);
  if ("diagnostic" in gitDir) return gitDir;
  const commonDir =
    repository.commonDir === repository.gitDir ? gitDir : hold(repository.commonDir);
  if ("diagnostic" in commonDir) {
    gitDir.close();
    return commonDir;
  }
  const close = () => {
    gitDir.close();
    commonDir.close();
  };
  const head = readIn(gitDir, "HEAD", MAX_REF_BYTES);
  const line = typeof head === "string" ? (head.split("\n")[0]?.trim() ?? "") : "";
  const target = line.startsWith("ref:") ? line.slice(4).trim() : undefined;
  const fine = target !== undefined ? validRef(target) : OID.test(line);
  return {
    repository,
    gitDir,
    commonDir,
    // Said only once git has judged the repository (a folder without HEAD is none).
    ...(typeof head === "object"
      ? { problem: head }
      : fine
        ? {}
        : {
            problem: refused(
              "git-refused",
              "HEAD names no branch or commit git can be given",
              repository.gitDir,
            ),
          }),
    branchRef: fine ? target : undefined,
    detached: fine && target === undefined ? line : undefined,
    close,
  };
}

/** A ref name the private `packed-refs` may hold: git's own rules, kept strict. */
function validRef(name: string): boolean {
  return (
    /^refs\/[^\0- \x7f~^:?*[\\]+$/.test(name) &&
    !/\.\.|@\{|\/\/|\/\.|\.lock(?:\/|$)|[./]$/.test(name)
  );
}

/** One key's values from `git config -z --get-regexp` output, in order. */
function valuesOf(records: readonly [string, string][], key: string): string[] {
  return records.filter(([k]) => k === key).map(([, v]) => v);
}

/** `<key>\n<value>` records, the section and variable names lower-cased by git. */
function configRecords(output: string): [string, string][] {
  return output
    .split("\0")
    .filter((r) => r !== "")
    .map((r) => {
      const newline = r.indexOf("\n");
      return newline < 0 ? [r, ""] : [r.slice(0, newline), r.slice(newline + 1)];
    });
}

/** A config value, quoted as git reads it back whole. */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t")}"`;
}

/** A subsection name, quoted; undefined when it cannot be written (a line break or NUL). */
function subsection(name: string): string | undefined {
  return /[\n\0]/.test(name) ? undefined : `"${name.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** Where `merge` of remote `remote` is kept, by the remote's fetch refspecs (git's first match). */
function trackingRef(merge: string, remote: string, specs: readonly string[]): string | undefined {
  if (remote === ".") return merge;
  for (const raw of specs) {
    const spec = raw.startsWith("+") ? raw.slice(1) : raw;
    const colon = spec.indexOf(":");
    if (spec.startsWith("^") || colon < 0) continue;
    const [src, dst] = [spec.slice(0, colon), spec.slice(colon + 1)];
    const star = src.indexOf("*");
    if (star < 0) {
      if (src === merge) return dst;
      continue;
    }
    const [pre, post] = [src.slice(0, star), src.slice(star + 1)];
    if (merge.length >= pre.length + post.length && merge.startsWith(pre) && merge.endsWith(post)) {
      return dst.replace("*", merge.slice(pre.length, merge.length - post.length));
    }
  }
  return undefined;
}

/**
 * Makes the private git folder for `held` from the repository's settings
 * (`config`: the output of `git config -z --get-regexp`, read once with the
 * repository's own files), or says why git cannot be given one.
 */
export function privateGit(
  held: HeldRepository,
  config: string,
  top: string,
): PrivateGit | Refused {
  if (held.problem !== undefined) return held.problem;
  const records = configRecords(config);
  const extensions = records.filter(([k]) => k.startsWith("extensions."));
  for (const [key, value] of extensions) {
    const name = key.slice("extensions.".length);
    if (name === "refstorage" && value.toLowerCase() === "files") continue;
    if (!KNOWN_EXTENSIONS.has(name)) {
      return refused(
        "git-refused",
        `the repository uses a git extension (${key}) sysprompt cannot give git in its own copy of the repository's settings`,
        join(held.commonDir.real, "config"),
      );
    }
  }
  if (valuesOf(records, "core.splitindex").some((v) => !/^(false|no|off|0)$/i.test(v))) {
    return refused(
      "git-refused",
      "the repository splits its index (core.splitIndex), which git cannot read from sysprompt's own copy of the git folder",
      join(held.commonDir.real, "config"),
    );
  }
  const last = (key: string) => valuesOf(records, key).at(-1);
  const lines = [
    "[core]",
    `\trepositoryformatversion = ${quoted(last("core.repositoryformatversion") ?? "0")}`,
  ];
  lines.push("\tbare = false");
  const carried = new Map<string, string>();
  for (const [key, value] of records) if (CARRIED.has(key)) carried.set(key, value);
  const objectFormat = last("extensions.objectformat");
  const bySection = new Map<string, string[]>();
  for (const [key, value] of carried) {
    const [section = "", name = ""] = key.split(".");
    const entries = bySection.get(section) ?? [];
    entries.push(`\t${name} = ${quoted(value)}`);
    bySection.set(section, entries);
  }
  for (const entry of bySection.get("core") ?? []) lines.push(entry);
  for (const section of ["status", "diff"]) {
    const entries = bySection.get(section);
    if (entries) {
      lines.push(`[${section}]`);
      for (const entry of entries) lines.push(entry);
    }
  }
  if (objectFormat !== undefined)
    lines.push("[extensions]", `\tobjectformat = ${quoted(objectFormat)}`);

  // The refs git needs: HEAD's branch, its upstream's remote-tracking ref and
  // the names that decide how the upstream is shortened.
  const refs = new Map<string, string>();
  const packed = { text: undefined as string | undefined | Refused, read: false };
  const lookup = (name: string, depth = 0): string | undefined | Refused => {
    if (!validRef(name) || depth > MAX_SYMREF_DEPTH) return undefined;
    const loose = readIn(held.commonDir, name, MAX_REF_BYTES);
    if (typeof loose === "object") return loose;
    if (loose !== undefined) {
      const line = loose.split("\n")[0]?.trim() ?? "";
      if (line.startsWith("ref:")) return lookup(line.slice(4).trim(), depth + 1);
      return OID.test(line) ? line : undefined;
    }
    if (!packed.read) {
      packed.read = true;
      packed.text = readIn(held.commonDir, "packed-refs", MAX_PACKED_REFS_BYTES);
    }
    if (typeof packed.text === "object") return packed.text;
    if (packed.text === undefined) return undefined;
    const at = packed.text.indexOf(` ${name}\n`);
    for (let i = at; i >= 0; i = packed.text.indexOf(` ${name}\n`, i + 1)) {
      const start = packed.text.lastIndexOf("\n", i - 1) + 1;
      const oid = packed.text.slice(start, i);
      if (OID.test(oid)) return oid;
    }
    return undefined;
  };
  const take = (name: string): Refused | undefined => {
    if (refs.has(name)) return undefined;
    const oid = lookup(name);
    if (typeof oid === "object") return oid;
    if (oid !== undefined) refs.set(name, oid);
    return undefined;
  };
  const branch = held.branchRef;
  if (branch !== undefined) {
    const problem = take(branch);
    if (problem) return problem;
  }
  const short = branch?.startsWith("refs/heads/") ? branch.slice("refs/heads/".length) : undefined;
  const header = short === undefined ? undefined : subsection(short);
  if (short !== undefined && header !== undefined) {
    const remote = last(`branch.${short}.remote`);
    const merges = valuesOf(records, `branch.${short}.merge`);
    const remoteHeader = remote === undefined ? undefined : subsection(remote);
    if (remote !== undefined && remoteHeader !== undefined && merges.length > 0) {
      lines.push(`[branch ${header}]`, `\tremote = ${quoted(remote)}`);
      for (const merge of merges) lines.push(`\tmerge = ${quoted(merge)}`);
      const specs = valuesOf(records, `remote.${remote}.fetch`);
      if (remote !== ".") {
        lines.push(`[remote ${remoteHeader}]`);
        for (const spec of specs) lines.push(`\tfetch = ${quoted(spec)}`);
      }
      const tracking = merges[0] === undefined ? undefined : trackingRef(merges[0], remote, specs);
      const names = tracking === undefined ? [] : [tracking];
      for (const prefix of ["refs/heads/", "refs/tags/", "refs/remotes/", "refs/"]) {
        if (tracking === undefined || !tracking.startsWith(prefix)) continue;
        const s = tracking.slice(prefix.length);
        names.push(
          `refs/${s}`,
          `refs/tags/${s}`,
          `refs/heads/${s}`,
          `refs/remotes/${s}`,
          `refs/remotes/${s}/HEAD`,
        );
      }
      for (const name of names) {
        const problem = take(name);
        if (problem) return problem;
      }
    }
  }
  const exclude = readIn(held.commonDir, "info/exclude", MAX_INFO_BYTES);
  if (typeof exclude === "object") return exclude;
  const attributes = readIn(held.commonDir, "info/attributes", MAX_INFO_BYTES);
  if (typeof attributes === "object") return attributes;

  let index: number | undefined;
  if (held.gitDir.fd !== undefined) {
    const opened = openIn(held.gitDir, "index");
    if (typeof opened === "object") return opened;
    index = opened;
  }
  let dir: string;
  try {
    dir = mkdtempSync(join(privateParent(), "sysprompt-git-"));
  } catch (error) {
    if (index !== undefined) closeSync(index);
    return cannotMake(error);
  }
  live.add(dir);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", removeLive);
  }
  const close = () => {
    if (index !== undefined) closeSync(index);
    index = undefined;
    // In memory (`/dev/shm`): a removal costs some tens of microseconds.
    rmSync(dir, { recursive: true, force: true });
    live.delete(dir);
  };
  try {
    mkdirSync(join(dir, "refs"));
    mkdirSync(join(dir, "info"));
    writeFileSync(join(dir, "config"), `${lines.join("\n")}\n`);
    writeFileSync(
      join(dir, "HEAD"),
      branch !== undefined ? `ref: ${branch}\n` : `${held.detached}\n`,
    );
    const packedRefs = [...refs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    writeFileSync(join(dir, "packed-refs"), packedRefs.map(([n, oid]) => `${oid} ${n}\n`).join(""));
    writeFileSync(join(dir, "info", "exclude"), exclude ?? "");
    const own =
      attributes === undefined || attributes.endsWith("\n") || attributes === ""
        ? (attributes ?? "")
        : `${attributes}\n`;
    // Last, so it wins over every other line: no path has a filter driver.
    writeFileSync(join(dir, "info", "attributes"), `${own}* -filter\n`);
  } catch (error) {
    close();
    return cannotMake(error);
  }
  const heldCommon = held.commonDir.fd;
  const fds = [heldCommon, index].filter((fd) => fd !== undefined);
  const objects =
    heldCommon === undefined ? join(held.commonDir.real, "objects") : "/proc/self/fd/3/objects";
  const indexFile =
    index !== undefined
      ? `/proc/self/fd/${heldCommon === undefined ? 3 : 4}`
      : held.gitDir.fd === undefined
        ? join(held.gitDir.real, "index")
        : join(dir, "index");
  return {
    env: {
      GIT_DIR: dir,
      GIT_WORK_TREE: top,
      GIT_INDEX_FILE: indexFile,
      GIT_OBJECT_DIRECTORY: objects,
    },
    fds,
    close,
  };
}
