import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { realpath } from "../../_io.js";
import { homeFolder, xdgFolder } from "../../_paths.js";
import type { GitInfo } from "../../data.js";
import type { Diagnostic } from "../../types.js";
import { type GatherStep, lifted } from "../deadline.js";
import {
  childPathEntries,
  findSystemBinary,
  type ProbeResult,
  type ProbeRunner,
  projectFolders,
  projectOwns,
  projectRoots,
  runProbe,
  systemPathEntries,
} from "../environment/index.js";
import { GIT_COMMITS, parseRiskyConfig, parseStatus, parseSubjects } from "./_parse.js";
import { type HeldRepository, holdRepository, type PrivateGit, privateGit } from "./_private.js";
import { locateRepository, type Repository } from "./_repository.js";

type Env = Readonly<Record<string, string | undefined>>;

/** How long one git command may run before it is killed (the render's deadline may stop it sooner). */
export const GIT_TIMEOUT_MS = 2000;

export interface GitOptions {
  /** The working folder: git looks for the repository from here (`git -C`). */
  cwd: string;
  /** Environment variables: `PATH` (git is found on its absolute entries), `HOME`, the locale. */
  env: Env;
  /**
   * Folders a repository controls: git is never taken from them, nor from the
   * project roots above them or the process's folder (see `projectFolders`).
   */
  exclude: readonly string[];
  /** The home folder, above which no folder is the project's (see `projectFolders`). Default: `homeFolder()`. */
  home?: string;
  /** No folder above this one is looked at for `.git`. Default: none (up to `/`). */
  ceilingDir?: string;
  /**
   * Git folders outside the project that a `.git` file or link may lead to
   * (a `git init --separate-git-dir` folder). Default: none: only the
   * project's own, its worktrees' and its submodules' (see `locateRepository`).
   */
  allowGitDirs?: readonly string[];
  /** Default: {@link runProbe}. Tests pass a fake. */
  run?: ProbeRunner;
  /** Default: {@link GIT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Aborted when the render stops waiting: a git still running is killed. */
  signal?: AbortSignal;
}

export interface GitResult {
  git: GitInfo | null;
  diagnostics: Diagnostic[];
}

/**
 * Settings given to every git command, whatever the repository's own
 * `.git/config` says. A repository's config can name programs that git runs
 * on its own: a file-system monitor (`core.fsmonitor`), signature checks
 * when the log is read (`log.showSignature` runs gpg), maintenance and
 * garbage collection, hooks; submodules have configs of their own. Each is
 * switched off here (hooks in a folder by `core.hooksPath`; the hooks git
 * 2.54 and later take from config, `hook.<name>.*`, have no event among the
 * read-only commands run here), and clean/smudge filter drivers one by one (see
 * {@link gatherGit}). Only read-only commands are run, with
 * `--no-optional-locks` so `status` does not refresh (write) the index. A
 * folder that merely looks like a git folder (HEAD, objects/, refs/) is not
 * taken as a repository (`safe.bareRepository=explicit`, git 2.38 and
 * later): a project could plant one, with a `core.worktree` anywhere.
 * No transport is allowed (every protocol `never`, and each one the
 * repository names, see {@link gatherGit}): a fetch would run the
 * repository's `core.sshCommand`, or its `ext::` command.
 */
const HARDENED = [
  "--no-pager",
  "--no-optional-locks",
  "-c",
  "safe.bareRepository=explicit",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.untrackedCache=false",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "log.showSignature=false",
  "-c",
  "gc.auto=0",
  "-c",
  "maintenance.auto=false",
  "-c",
  "status.submoduleSummary=false",
  "-c",
  "diff.ignoreSubmodules=all",
  "-c",
  "color.ui=false",
  // A repository's UTF-16 log encoding puts NUL bytes, `-z`'s separators, in each subject (rev64d F3).
  "-c",
  "i18n.logOutputEncoding=UTF-8",
  "-c",
  "protocol.allow=never",
  ...["file", "git", "ssh", "http", "https", "ext", "fd"].flatMap((p) => [
    "-c",
    `protocol.${p}.allow=never`,
  ]),
];

/** Variables git may see: the user's own settings. Everything else (GIT_DIR, GIT_CONFIG_*, GIT_EXEC_PATH…) is dropped. */
const KEPT_VARIABLES = ["USERPROFILE", "SYSTEMROOT", "TMPDIR", "LANG"];

/**
 * The environment git runs with: kept variables, `path` as its PATH (the
 * entries {@link childPathEntries} keeps), and no
 * prompts or optional locks. `HOME` and `XDG_CONFIG_HOME`, where git finds
 * your settings, only as absolute paths: git runs in the project (`-C`), so a
 * relative one would name the project's file as yours. A relative `HOME` is
 * `home`, the user database's home folder (see `homeFolder`); a relative
 * `XDG_CONFIG_HOME` is left out, as the XDG spec says.
 */
export function gitEnv(env: Env, path: readonly string[], home?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of KEPT_VARIABLES) {
    const value = env[key];
    if (value !== undefined) out[key] = value;
  }
  if (env.HOME !== undefined) out.HOME = isAbsolute(env.HOME) ? env.HOME : (home ?? homeFolder());
  const xdg = xdgFolder(env, "XDG_CONFIG_HOME");
  if (xdg !== undefined) out.XDG_CONFIG_HOME = xdg;
  out.PATH = path.join(delimiter);
  out.GIT_OPTIONAL_LOCKS = "0";
  out.GIT_TERMINAL_PROMPT = "0";
  // A missing object is never fetched (git 2.39.4 and later; older ones: see gatherGit).
  out.GIT_NO_LAZY_FETCH = "1";
  // Trace2 writes where the global config says (trace2.normalTarget, perfTarget, eventTarget: any
  // file, appended to, with lines trace2.configParams and envVars choose); these variables beat it.
  out.GIT_TRACE2 = "0";
  out.GIT_TRACE2_PERF = "0";
  out.GIT_TRACE2_EVENT = "0";
  // Messages and formats that do not depend on the user's locale.
  out.LC_ALL = "C";
  return out;
}

/**
 * The repository state for the `git` section, from the system `git` (an
 * absolute `PATH` entry outside every folder the project controls, never
 * the project's own), run with the hardened settings above, a timeout, a
 * capped output and a scrubbed environment. Gives `git: null` with a
 * diagnostic when git is absent, the folder is not in a repository, or a
 * command fails or is late. Never throws for what the repository holds.
 */
export async function gatherGit(options: GitOptions): Promise<GitResult> {
  // The project roots above `exclude` too, as the probes have it: a PATH entry into the
  // project root from a folder below it would otherwise give the project's git.
  const { home } = options;
  const exclude = await projectFolders(options.exclude, systemPathEntries(options.env), home);
  const binary = await findSystemBinary("git", options.env, {
    exclude,
    ...(home === undefined ? {} : { home }),
  });
  if (binary === undefined) {
    return left(
      "warning",
      "git-missing",
      "no git on an absolute PATH entry outside the project; the git section is left out",
    );
  }
  const run = options.run ?? runProbe;
  const path = await childPathEntries(options.env, {
    exclude,
    ...(home === undefined ? {} : { home }),
  });
  let env = { ...gitEnv(options.env, path, home), ...gitCeiling(options.ceilingDir) };
  const git = (args: readonly string[], extra: readonly string[] = [], own?: PrivateGit) =>
    run(binary, [...HARDENED, ...extra, "-C", options.cwd, ...args], {
      timeoutMs: options.timeoutMs ?? GIT_TIMEOUT_MS,
      exclude,
      env: own ? { ...env, ...own.env } : env,
      ...(own && own.fds.length > 0 ? { fds: own.fds } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });

  // The check of the repository's files gets the time of one command, and stops with the render.
  const budget = AbortSignal.timeout(options.timeoutMs ?? GIT_TIMEOUT_MS);
  const located = await locateRepository(options.cwd, {
    ...(options.ceilingDir !== undefined ? { ceilingDir: options.ceilingDir } : {}),
    allowed: await realPaths(options.allowGitDirs ?? []),
    signal: options.signal ? AbortSignal.any([options.signal, budget]) : budget,
  });
  if (located.kind === "refused") return { git: null, diagnostics: [located.diagnostic] };
  if (located.kind === "none") return noRepository(options);
  const { top, gitDir, commonDir } = located.repository;
  env = await withoutProjectGlobals(env, [...options.exclude, top, gitDir, commonDir]);
  // Held from here on: what git reads after the judging is the folder judged (rev92a F6).
  const held = holdRepository(located.repository);
  if ("diagnostic" in held) return { git: null, diagnostics: [held.diagnostic] };
  try {
    return await judgedGit(git, held, options, top);
  } finally {
    held.close();
  }
}

/** The rest of {@link gatherGit}, once the repository is found and held. */
async function judgedGit(
  git: (
    args: readonly string[],
    extra?: readonly string[],
    own?: PrivateGit,
  ) => Promise<ProbeResult>,
  held: HeldRepository,
  options: GitOptions,
  top: string,
): Promise<GitResult> {
  const branch = held.branchRef?.startsWith("refs/heads/")
    ? `|^branch\\.${held.branchRef.slice("refs/heads/".length).replace(/[.^$|()[\]{}*+?\\]/g, "\\$&")}\\.`
    : "";
  const [where, filters] = await Promise.all([
    git([
      "rev-parse",
      "--is-inside-work-tree",
      "--show-toplevel",
      "--absolute-git-dir",
      "--git-common-dir",
    ]),
    git([
      "config",
      "-z",
      "--get-regexp",
      `^(filter|protocol|extensions|remote|core|status|diff)\\.${branch}`,
    ]),
  ]);
  if (where.status === "timeout" || filters.status === "timeout") return late(options);
  if (where.status !== "ok" || !where.stdout.startsWith("true\n")) return noRepository(options);
  const other = await otherRepository(where.stdout, options.cwd, held.repository);
  if (other !== undefined) return { git: null, diagnostics: [other] };
  if (filters.status === "ok" && filters.truncated === true) {
    // A filter driver in the part cut off would not be switched off, and status runs it.
    return left(
      "warning",
      "git-refused",
      "the repository's config has more filter, protocol, extensions and remote entries than can be read to switch them off (its output was cut); git status is not run and the git section is left out",
    );
  }
  // `config --get-regexp` exits 1 when nothing matches: no filters.
  const risky = parseRiskyConfig(filters.status === "ok" ? filters.stdout : "");
  if (risky.promisor !== undefined) {
    // A partial clone fetches a missing object from its remote on its own (git
    // before 2.39.4 ignores GIT_NO_LAZY_FETCH), and status or log can need one.
    return left(
      "warning",
      "git-refused",
      `the repository is a partial clone (${risky.promisor}): git would fetch missing objects from a remote, running a transport the repository chose; git is not run further and the git section is left out`,
    );
  }
  const odd = [...risky.drivers, ...risky.protocols].find(
    (d) => d.includes("=") || d.includes("\n"),
  );
  if (odd !== undefined) {
    return left(
      "warning",
      "git-refused",
      "a filter driver's or protocol's name cannot be switched off safely on the command line; git status is not run and the git section is left out",
    );
  }
  const overrides = risky.drivers
    .flatMap((d) =>
      ["clean", "smudge", "process"]
        .flatMap((key) => ["-c", `filter.${d}.${key}=`])
        .concat(["-c", `filter.${d}.required=false`]),
    )
    .concat(risky.protocols.flatMap((p) => ["-c", `protocol.${p}.allow=never`]));
  // git status and log read no config, HEAD or refs of the repository's: only those read once above.
  const own = privateGit(held, filters.status === "ok" ? filters.stdout : "", top);
  if ("diagnostic" in own) return { git: null, diagnostics: [own.diagnostic] };
  try {
    return await statusAndLog(git, own, overrides, options);
  } finally {
    own.close();
  }
}

async function statusAndLog(
  git: (
    args: readonly string[],
    extra?: readonly string[],
    own?: PrivateGit,
  ) => Promise<ProbeResult>,
  own: PrivateGit,
  overrides: readonly string[],
  options: GitOptions,
): Promise<GitResult> {
  const status = await git(
    [
      "status",
      "--porcelain=v2",
      "--branch",
      "-z",
      "--untracked-files=normal",
      "--ignore-submodules=all",
    ],
    overrides,
    own,
  );
  if (status.status !== "ok")
    return status.status === "timeout" ? late(options) : failed("git status");
  const parsed = parseStatus(status.stdout, status.truncated === true);
  let commits: string[] = [];
  if (parsed.head !== null) {
    const log = await git(
      ["log", "-z", `-n${GIT_COMMITS}`, "--format=%s", "--no-show-signature", "HEAD"],
      overrides,
      own,
    );
    if (log.status === "timeout") return late(options);
    if (log.status !== "ok") return failed("git log");
    commits = parseSubjects(log.stdout);
  }
  return { git: { ...parsed, commits }, diagnostics: [] };
}

/**
 * `env` without a global config the project wrote. With `HOME` or
 * `XDG_CONFIG_HOME` inside the checkout (as a CI job may set them), git reads
 * the project's `.gitconfig` or `.config/git/config` as yours, and global
 * config may do what a repository's may not: trace2 targets (switched off in
 * {@link gitEnv} too), `safe.directory`, `include` of any file,
 * `core.excludesFile` and `core.attributesFile` anywhere. Such a folder is
 * given to git as `/dev/null`, where git finds no file (`HOME=/dev/null`: no
 * `~/.gitconfig`; `XDG_CONFIG_HOME=/dev/null`: no `git/config`, `git/ignore`
 * or `git/attributes`), so git reads none of them; works with every git, not
 * only those that know `GIT_CONFIG_GLOBAL`. Judged by the path as written and
 * by real path: a link from your home into the checkout is the project's too.
 */
async function withoutProjectGlobals(
  env: Record<string, string>,
  project: readonly string[],
): Promise<Record<string, string>> {
  const out = { ...env };
  const xdg =
    env.XDG_CONFIG_HOME ?? (env.HOME === undefined ? undefined : join(env.HOME, ".config"));
  const files = [
    ...(env.HOME === undefined ? [] : [join(env.HOME, ".gitconfig")]),
    ...(xdg === undefined
      ? []
      : ["config", "ignore", "attributes"].map((f) => join(xdg, "git", f))),
  ];
  if (files.length === 0) return out;
  // The project's folders, and the repositories around them that hold one of the files (up to
  // git's home folder, never it: a home inside a checkout leaves the checkout the project's).
  const folders = await projectRoots(project, files, env.HOME);
  const owns = projectOwns(folders);
  if (env.HOME !== undefined && (await owns(join(env.HOME, ".gitconfig")))) out.HOME = "/dev/null";
  if (xdg !== undefined) {
    const judged = await Promise.all(files.slice(env.HOME === undefined ? 0 : 1).map(owns));
    if (judged.some(Boolean)) out.XDG_CONFIG_HOME = "/dev/null";
    // HOME's .config is yours while HOME is not: said outright, as HOME now leads nowhere.
    else if (out.HOME === "/dev/null") out.XDG_CONFIG_HOME = xdg;
  }
  return out;
}

/**
 * `ceilingDir` as git's own ceiling: git looks for the repository in the
 * ceiling folder and below it, never above (GIT_CEILING_DIRECTORIES names the
 * first folder it may not enter: the ceiling's parent). Without it, git run in
 * a folder whose `.git` it does not take (an empty folder, as a simulation's
 * copy has) walked up past the ceiling to whatever repository held it (a
 * dotfiles home) and ran there.
 */
function gitCeiling(ceilingDir: string | undefined): Record<string, string> {
  if (ceilingDir === undefined) return {};
  const ceiling = resolve(ceilingDir);
  const parent = dirname(ceiling);
  return parent === ceiling ? {} : { GIT_CEILING_DIRECTORIES: parent };
}

function noRepository(options: GitOptions): GitResult {
  return left(
    "info",
    "git-no-repository",
    `${options.cwd} is not in a git work tree (or git refused it); the git section is left out`,
  );
}

/** Real paths of the folders that exist; the others allow nothing. */
async function realPaths(paths: readonly string[]): Promise<string[]> {
  const real = await Promise.all(paths.map((p) => realpath(p).catch(() => undefined)));
  return real.filter((p) => p !== undefined);
}

/**
 * Where git says it works (`rev-parse --show-toplevel --absolute-git-dir
 * --git-common-dir`, one per line) against the repository checked before it
 * ran: a `core.worktree` in the repository's config moves git's work tree
 * elsewhere (to a folder above, whose files it would count), and git may
 * find things this check does not model. Any difference: refused.
 */
async function otherRepository(
  output: string,
  cwd: string,
  expected: Repository,
): Promise<Diagnostic | undefined> {
  const [, top = "", gitDir = "", common = ""] = output.split("\n");
  // An older git prints the common folder relative to the folder it ran in.
  const said = await Promise.all(
    [top, gitDir, resolve(cwd, common)].map((p) => realpath(p).catch(() => p)),
  );
  const wanted = [expected.top, expected.gitDir, expected.commonDir];
  const differs = said.findIndex((p, i) => p !== wanted[i]);
  if (differs < 0) return undefined;
  const what = ["work tree", "git folder", "common git folder"][differs];
  return {
    level: "warning",
    code: "git-outside",
    message: `git would use ${said[differs] ?? ""} as its ${what}, not ${wanted[differs] ?? ""} (a core.worktree setting, or a layout git reads differently); the git section is left out`,
    path: differs === 0 ? join(expected.commonDir, "config") : expected.dotGit,
  };
}

function left(level: Diagnostic["level"], code: string, message: string): GitResult {
  return { git: null, diagnostics: [{ level, code, message }] };
}

function late(options: GitOptions): GitResult {
  return left(
    "warning",
    "git-timeout",
    `git did not answer within ${options.timeoutMs ?? GIT_TIMEOUT_MS} ms and was stopped; the git section is left out`,
  );
}

function failed(what: string): GitResult {
  return left("warning", "git-failed", `${what} failed; the git section is left out`);
}

/** Off unless asked for (`git: true`): a step that does not run, and no section. */
export function gitStep(options: GitOptions & { enabled: boolean }): GatherStep<GitResult> {
  const { enabled, signal, run, ...inputs } = options;
  const fallback: GitResult = { git: null, diagnostics: [] };
  if (!enabled) return { name: "git", run: undefined, fallback };
  return {
    name: "git",
    run: async () => lifted(await gatherGit(options)),
    fallback,
    // Taken once per session: a session reuses it while the folder and environment are the same.
    inputs,
  };
}
