import { type Dir, opendirSync, type Stats, statSync } from "node:fs";
import { userInfo } from "node:os";
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { expandHome, homeFolder, isWithin, toPosix } from "../_paths.js";
import { realpathSyncLinear } from "../_realpath.js";
import { PI_AGENT_CONFIG_FILES, SETTINGS_FILES } from "../agent-settings-files.js";
import { namesRefusal } from "./door-checks.js";
import { NO_DEADLINE } from "./no-deadline.js";
import type { Refusal } from "./reach.js";

/** An environment: the render's (`env`), else the process's. */
type Env = Readonly<Record<string, string | undefined>>;

/**
 * A private place ({@link PRIVATE_PLACES}): at `place` from your home folder by default, and,
 * when `variable` names a folder (an absolute value, or one from `~`; an XDG one absolute only),
 * at `below` in it instead, as well (`$CLAUDE_CONFIG_DIR/.credentials.json`). A `file` variable
 * names the place itself (`$AWS_SHARED_CREDENTIALS_FILE`), a `list` one a colon-separated list of
 * them (`$KUBECONFIG`).
 */
interface PrivatePlace {
  place?: string;
  variable?: string;
  below?: string;
  list?: true;
}

/** `below` of each of `names`, at `place` from the home folder by default and moved by `variable`. */
function movedBy(variable: string, folder: string, names: readonly string[]): PrivatePlace[] {
  return names.map((below) => ({ place: join(folder, below), variable, below }));
}

/**
 * The private places of your home folder, relative to it, and the variable that moves each: keys,
 * tokens and credentials of ssh, gpg, the cloud and package tools and the coding agents themselves,
 * your shell's start-up files and histories. A file of yours at or below one of them (by its real
 * path, or, with more than one name, by its identity) never reaches a prompt, whoever's file names
 * it, yours included: your layer's files, your rule files, your `AGENTS.md` and its `@~/...`
 * imports, skills, templates, presets, your config (decided, review rev99a F1-F3, F5: a kit you put
 * in your own config, unpacked by Python's `tarfile` before 3.14, holds hard links and links to
 * `~/.ssh/id_rsa`, and whether the kit is "yours" is no longer what keeps your key out). One table:
 * a place a variable moves (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `XDG_CONFIG_HOME`, `GNUPGHOME`, …) is
 * private where the render's environment puts it too (review rev109a F1).
 */
export const PRIVATE_PLACES: readonly PrivatePlace[] = [
  { place: ".ssh" },
  { place: ".gnupg", variable: "GNUPGHOME", below: "" },
  { place: ".aws" },
  { variable: "AWS_SHARED_CREDENTIALS_FILE", below: "" },
  { variable: "AWS_CONFIG_FILE", below: "" },
  { place: ".azure" },
  { place: ".kube" },
  { variable: "KUBECONFIG", below: "", list: true },
  { place: ".docker", variable: "DOCKER_CONFIG", below: "" },
  { place: ".oci" },
  { place: ".password-store", variable: "PASSWORD_STORE_DIR", below: "" },
  { place: ".netrc" },
  { place: ".git-credentials" },
  { place: ".npmrc" },
  { place: ".pypirc" },
  { place: ".pgpass" },
  { place: ".my.cnf" },
  { place: ".s3cfg" },
  { place: ".boto" },
  { place: ".vault-token" },
  { place: ".terraform.d/credentials.tfrc.json" },
  { place: ".cargo/credentials" },
  { place: ".cargo/credentials.toml" },
  { place: ".gem/credentials" },
  { place: ".m2/settings.xml" },
  { place: ".gradle/gradle.properties" },
  { place: ".ollama/id_ed25519" },
  { place: ".config/gh", variable: "GH_CONFIG_DIR", below: "" },
  // Your XDG config folder's: each tool's folder of tokens and keys (`gh/hosts.yml`, `sops/age/keys.txt`).
  ...movedBy("XDG_CONFIG_HOME", ".config", [
    "gh",
    "hub",
    "gcloud",
    "git/credentials",
    "git/config",
    "fish",
    "opencode",
    "github-copilot",
    "sops",
    "age",
    "containers/auth.json",
    "rclone",
    "composer/auth.json",
    "doctl",
    "hcloud",
  ]),
  // Your XDG data folder's (not `containers/storage`, images: only its logins).
  ...movedBy("XDG_DATA_HOME", ".local/share", [
    "keyrings",
    "opencode",
    "fish",
    "containers/auth.json",
  ]),
  { place: ".pi/agent/auth.json" },
  { place: ".codex/auth.json", variable: "CODEX_HOME", below: "auth.json" },
  { place: ".codex/config.toml", variable: "CODEX_HOME", below: "config.toml" },
  { place: ".claude/.credentials.json", variable: "CLAUDE_CONFIG_DIR", below: ".credentials.json" },
  { place: ".claude.json", variable: "CLAUDE_CONFIG_DIR", below: ".claude.json" },
  { place: ".claude/settings.json", variable: "CLAUDE_CONFIG_DIR", below: "settings.json" },
  {
    place: ".claude/settings.local.json",
    variable: "CLAUDE_CONFIG_DIR",
    below: "settings.local.json",
  },
  { place: ".gemini/oauth_creds.json" },
  // Your shell's start-up files and histories, which export and type tokens (review rev104a F2, rev109a F1).
  ...[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".kshrc",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".bash_history",
    ".zsh_history",
    ".zhistory",
    ".histfile",
    ".python_history",
    ".node_repl_history",
    ".psql_history",
    ".mysql_history",
    ".sqlite_history",
    ".lesshst",
    ".viminfo",
    ".gitconfig",
    ".env",
    ".gemini/.env",
  ].map((place) => ({ place })),
  // Every agent's settings files (MCP servers' env tokens, API keys), as `export --out` knows them.
  ...Object.values(SETTINGS_FILES)
    .flat()
    .map((place) => ({ place })),
];

/** The private places of your home folder at their default places, relative to it ({@link PRIVATE_PLACES}). */
export const YOUR_PRIVATE_PLACES: readonly string[] = PRIVATE_PLACES.flatMap((p) =>
  p.place === undefined ? [] : [p.place],
).filter((place, at, all) => all.indexOf(place) === at);

/**
 * At most this many files of more than one name in your private places are kept to know them by
 * identity (a file of one name has no other to be read by; a cache of them costs a stat each).
 */
export const MAX_PRIVATE_ENTRIES = 4096;
/** And the walk stops after this long, whatever the render's deadline (it is synchronous). */
const MAX_PRIVATE_MS = 250;
/** Folders of your private places that hold no credentials, only caches and logs: not walked. */
const CREDENTIAL_FREE = [
  ".kube/cache",
  ".kube/http-cache",
  ".config/gcloud/logs",
  ".docker/buildx",
];
/** And no deeper than this below a place (`.password-store/work/team/x.gpg`). */
const MAX_PRIVATE_DEPTH = 6;

/** Your private files by identity (`dev:ino`), each with a name of it; `short` when not all were seen. */
interface Identities {
  ids: Map<string, string>;
  short?: string;
}

/** Your home's private places, as found once: where they are, and their files by identity (asked lazily). */
interface YourPrivate {
  home: string;
  /**
   * Your home as written and as real: where a file of yours named in it may lead; none when it is
   * the top of the file system (`HOME=/`: {@link yourHomeFolders}, review rev109a F3).
   */
  homes: string[];
  /** Your agent dirs, each as written and as real: where a file of yours named in them may lead. */
  dirs: string[];
  /** Each place as written and as real, and the real folder of each that is a link. */
  places: Place[];
  /** The folders of {@link places} that hold no credentials (caches, logs): not walked. */
  skipped: Set<string>;
  identities?: Identities;
  /** The agent dirs whose pi configuration is among {@link places} ({@link withAgentDir}). */
  agentDirs?: Set<string>;
  /** Folders asked whether they are a git folder ({@link gitFolderAbove}), and the answer. */
  gitDirs?: Map<string, boolean>;
}

/** A private place: where it is, how it is shown, and, `byName`, not walked for its files' other names. */
interface Place {
  at: string;
  shown: string;
  byName?: true;
}

/** Whose private places a read of a file of yours is checked against, and the deadline of the render. */
export interface YoursAt {
  home?: string | undefined;
  /**
   * The agent dir whose files these are, when known: its pi configuration
   * ({@link PI_AGENT_CONFIG_FILES}) is private wherever it lies, and a file
   * named in it or in your home whose links lead out of both is refused
   * (review rev104a F2).
   */
  agentDir?: string | undefined;
  /**
   * Whether `named`, a file of yours linked out of your home and agent dir,
   * lies in a stow mirror of your home (`homes`: your dotfiles repository,
   * `mirroredRepositorySync`), which is yours: given by the door, which may
   * import the walk this module may not.
   */
  mirrored?: ((named: string, homes: readonly string[]) => boolean) | undefined;
  /**
   * The environment whose variables move your private places ({@link PRIVATE_PLACES}): in a
   * render, the render's ({@link withPrivateLook}); else this, else `process.env`.
   */
  env?: Env | undefined;
  signal?: AbortSignal | undefined;
}

// One look at your private places per render and home (review fx104b): every file of yours a
// render checks, whatever step reads it and with whatever signal or none (the builtin layer, your
// config, a preset, your rule files), shares the look of the render under way, made at the first
// of them; a render's end drops it, and the next render (a watch rebuild, a serve request) looks
// again. Keyed by a step's signal, and a read with none by a window of a second, a render looked
// once per step and, under valgrind's 30-fold slowness, once per builtin section (cli-instr 717 M
// to 807 M instructions at 129048e1).
let underWay: Map<string, YourPrivate> | undefined;
// The environments of the renders under way: a look they share takes the places each moves.
const renderEnvs: Env[] = [];
// Outside a render (a library caller's loader): one look per signal, and a read with no signal
// (NO_DEADLINE is every caller's; the synchronous loaders) shares a look taken less than a second
// before, so a loader of a hundred templates looks once, not a hundred times.
const seen = new WeakMap<AbortSignal, Map<string, YourPrivate>>();
const recent = new Map<string, { at: number; mine: YourPrivate; env: Env }>();
const RECENT_MS = 1_000;
let looks = 0;

/**
 * Runs `work` (one render's preparation, one hook call) with one look at your private places
 * per home for every file of yours it checks, made lazily at the first and dropped when `work`
 * settles, its places moved by `env` (the render's environment: `CLAUDE_CONFIG_DIR`, `GNUPGHOME`,
 * …, review rev109a F1). A render that starts while another runs starts a fresh look, which both
 * then share: no render's files are checked against a look older than its start, nor without the
 * places its environment moves.
 */
export async function withPrivateLook<T>(
  work: () => Promise<T>,
  env: Env = process.env,
): Promise<T> {
  underWay = new Map();
  renderEnvs.push(env);
  try {
    return await work();
  } finally {
    renderEnvs.splice(renderEnvs.indexOf(env), 1);
    if (renderEnvs.length === 0) underWay = undefined;
  }
}

/** How many looks at your private places this process made (tests: one per render). */
export function privateLooksMade(): number {
  return looks;
}

function lookAt(home: string, agentDir: string | undefined, envs: readonly Env[]): YourPrivate {
  looks++;
  return yourPrivateOf(home, agentDir, envs);
}

function yourPrivate(at: YoursAt): YourPrivate {
  const home = at.home ?? homeFolder();
  if (underWay !== undefined) {
    // One look a home in a render; the agent dir a read names adds its few places to it.
    let kept = underWay.get(home);
    if (kept === undefined) {
      kept = lookAt(home, undefined, at.env ? [...renderEnvs, at.env] : renderEnvs);
      underWay.set(home, kept);
    }
    return withAgentDir(kept, at.agentDir);
  }
  const env = at.env ?? process.env;
  const key = at.agentDir === undefined ? home : `${home}\0${at.agentDir}`;
  const signal = at.signal !== NO_DEADLINE ? at.signal : undefined;
  if (signal === undefined) {
    const now = performance.now();
    const kept = recent.get(key);
    if (kept && kept.env === env && now - kept.at < RECENT_MS) return kept.mine;
    const mine = lookAt(home, at.agentDir, [env]);
    if (recent.size > 16) recent.clear();
    recent.set(key, { at: now, mine, env });
    return mine;
  }
  const kept = seen.get(signal)?.get(key);
  if (kept) return kept;
  const made = lookAt(home, at.agentDir, [env]);
  const byHome = seen.get(signal) ?? new Map<string, YourPrivate>();
  byHome.set(key, made);
  seen.set(signal, byHome);
  return made;
}

/** Whether `folder` is the top of the file system (`/`, `C:\\`), which holds every other. */
export function isFileSystemTop(folder: string): boolean {
  const at = resolve(folder);
  return dirname(at) === at;
}

/**
 * The folders a file of yours lies in as yours by being in your home folder: `home` as given and
 * by its real path (`realHome`), or none when either is the top of the file system: `HOME=/`,
 * what `docker run --user 1000` with no passwd entry, a Kubernetes `runAsUser` pod or a CI
 * container gives, made every file of the machine yours, so a kit's imports read any of them
 * (`@/etc/shadow`). Then your files are read within your agent dir alone (decided, review rev109a
 * F3). The one rule for your imports' scope and for where your files' links may lead.
 */
export function yourHomeFolders(home: string, realHome: string): string[] {
  const base = resolve(home);
  return isFileSystemTop(base) || isFileSystemTop(realHome) ? [] : [base, realHome];
}

/**
 * The home folder of this process's user in the user database, when it is not `home` nor the top
 * of the file system: with `HOME=/` or another folder, that user's private files are as private
 * (review rev109a F3). `os.userInfo` throws for a user with no entry.
 */
function passwdHome(home: string, realHome: string): string | undefined {
  let found: string;
  try {
    found = userInfo().homedir;
  } catch {
    return undefined;
  }
  if (!found || !isAbsolute(found) || isFileSystemTop(found)) return undefined;
  const at = resolve(found);
  return at === resolve(home) || at === realHome ? undefined : at;
}

function yourPrivateOf(
  home: string,
  agentDir: string | undefined,
  envs: readonly Env[],
): YourPrivate {
  // Absolute and normal, as a real path is: `placeOf` compares them as strings.
  const base = resolve(home);
  const realHome = realOrUndefined(base) ?? base;
  const places = placesOf(base, realHome, YOUR_PRIVATE_PLACES, (rel) => `~/${rel}`);
  const skipped = new Set(CREDENTIAL_FREE.flatMap((rel) => [join(base, rel), join(realHome, rel)]));
  for (const env of envs) {
    for (const moved of movedPlaces(env, base, realHome)) {
      pushPlaces(
        places,
        placesOf(moved.at, moved.at, [""], () => moved.shown),
      );
      for (const rel of CREDENTIAL_FREE)
        if (moved.place !== undefined && rel.startsWith(`${moved.place}/`))
          skipped.add(join(moved.at, rel.slice(moved.place.length + 1)));
    }
  }
  const other = passwdHome(base, realHome);
  if (other !== undefined) {
    const realOther = realOrUndefined(other) ?? other;
    for (const place of placesOf(other, realOther, YOUR_PRIVATE_PLACES, (rel) => join(other, rel)))
      places.push({ ...place, byName: true });
  }
  return withAgentDir(
    { home, homes: yourHomeFolders(base, realHome), dirs: [], places, skipped },
    agentDir,
  );
}

/**
 * The places {@link PRIVATE_PLACES}' variables move under `env`, `~` being `home`: each where an
 * absolute value (or one from `~`; an XDG one absolute only, as the XDG spec reads it) puts it,
 * `$KUBECONFIG` each path of its list. Not one that is the top of the file system or holds your
 * home (`GNUPGHOME=/`, `DOCKER_CONFIG=~`): that would make every file of yours private.
 */
function movedPlaces(
  env: Env,
  home: string,
  realHome: string,
): { at: string; shown: string; place?: string }[] {
  const found: { at: string; shown: string; place?: string }[] = [];
  for (const { place, variable, below = "", list } of PRIVATE_PLACES) {
    if (variable === undefined) continue;
    const value = env[variable];
    if (value === undefined || value === "") continue;
    const values = list ? value.split(delimiter) : [value];
    for (const one of values) {
      const folder = variable.startsWith("XDG_")
        ? isAbsolute(one)
          ? one
          : undefined
        : isAbsolute(one) || one === "~" || one.startsWith("~/")
          ? expandHome(one, home)
          : undefined;
      if (folder === undefined) continue;
      const at = resolve(folder, below);
      if (isFileSystemTop(at) || isWithin(home, at) || isWithin(realHome, at)) continue;
      const shown = below === "" ? `$${variable}` : `$${variable}/${below}`;
      found.push(place === undefined ? { at, shown } : { at, shown, place });
    }
  }
  return found;
}

/**
 * `mine` with the agent dir's pi configuration ({@link PI_AGENT_CONFIG_FILES}) among its places
 * and the agent dir among its own folders, added once: a look made for a render's home serves
 * every read of it, those naming the agent dir and those naming none (review fx104b).
 */
function withAgentDir(mine: YourPrivate, agentDir: string | undefined): YourPrivate {
  if (agentDir === undefined) return mine;
  const dir = resolve(agentDir);
  if (mine.agentDirs?.has(dir)) return mine;
  mine.agentDirs ??= new Set();
  mine.agentDirs.add(dir);
  const realAgentDir = realOrUndefined(dir) ?? dir;
  mine.dirs.push(dir, realAgentDir);
  pushPlaces(
    mine.places,
    placesOf(dir, realAgentDir, PI_AGENT_CONFIG_FILES, (rel) => `the agent dir's ${rel}`),
  );
  return mine;
}

function pushPlaces(to: Place[], more: readonly Place[]): void {
  for (const place of more) to.push(place);
}

function placesOf(
  top: string,
  realTop: string,
  rels: readonly string[],
  shownAs: (rel: string) => string,
): Place[] {
  const places: Place[] = [];
  for (const rel of rels) {
    const shown = shownAs(rel);
    const at = join(top, rel);
    places.push({ at, shown });
    if (realTop !== top) places.push({ at: join(realTop, rel), shown });
    // Your `~/.ssh -> ~/dotfiles/ssh`: the folder it leads to is as private.
    const real = realOrUndefined(at);
    if (real !== undefined && real !== at && real !== join(realTop, rel))
      places.push({ at: real, shown });
  }
  return places;
}

/**
 * The place `path` lies at or below, as {@link isWithin} says, by one `resolve` of it and a
 * string comparison per place (all absolute and normal: `placesOf`, real paths of the walk), not a
 * `path.relative` per place: some 30 places for every file of yours a render reads (fx104b).
 * Windows compares names case-insensitively: there, `isWithin` itself.
 */
function placeOf(path: string, places: readonly Place[]): Place | undefined {
  if (sep !== "/") return places.find((p) => isWithin(path, p.at));
  const at = resolve(path);
  return places.find((p) => at === p.at || (at.startsWith(p.at) && at[p.at.length] === "/"));
}

function statOrNone(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSyncLinear(path);
  } catch {
    return undefined;
  }
}

/**
 * The private files of your home by identity, stat'ed once per render ({@link withPrivateLook}; not
 * through src/_io.ts: a session would render again each time ssh rewrites
 * `known_hosts`, and no text is read): each
 * place, and below a folder its entries, links followed to a file (a key
 * kept elsewhere and linked in is as private), at most
 * {@link MAX_PRIVATE_ENTRIES} entries and {@link MAX_PRIVATE_DEPTH} folders
 * deep, and not past the render's deadline: `short` says what was not seen.
 */
function identitiesOf(mine: YourPrivate, signal: AbortSignal | undefined): Identities {
  if (mine.identities) return mine.identities;
  const ids = new Map<string, string>();
  let left = MAX_PRIVATE_ENTRIES;
  let short: string | undefined;
  let cutByDeadline = false;
  let seenEntries = 0;
  const stopAt = performance.now() + MAX_PRIVATE_MS;
  const walked = new Set<string>();
  const skipped = mine.skipped;
  // Only a file of more than one name can be read by another name (review rev103a F3).
  const add = (s: Stats, path: string) => {
    if (!s.isFile() || !(s.nlink > 1)) return;
    if (left-- <= 0) short = `more than ${MAX_PRIVATE_ENTRIES} files of more than one name`;
    else ids.set(`${s.dev}:${s.ino}`, path);
  };
  const walk = (dir: string, depth: number): void => {
    let d: Dir;
    try {
      d = opendirSync(dir);
    } catch {
      return;
    }
    try {
      // Streamed, and timed by the clock: a million-entry cache is neither read whole nor walked
      // past the stop (the render's signal cannot fire while this runs; review rev103a F3).
      for (let entry = d.readSync(); entry !== null; entry = d.readSync()) {
        if (signal?.aborted) {
          short = "the render's deadline passed";
          cutByDeadline = true;
        } else if ((++seenEntries & 63) === 0 && performance.now() > stopAt)
          short = `the look took more than ${MAX_PRIVATE_MS} ms`;
        if (short !== undefined) return;
        const path = join(dir, entry.name);
        // A link found here (GNU stow's `~/.ssh/id_ed25519 -> ../dotfiles/ssh/.ssh/id_ed25519`,
        // a linked `~/.ssh/keys`): what it leads to is as private, a folder walked too (rev103a F1).
        if (entry.isSymbolicLink()) {
          const real = realOrUndefined(path);
          if (real === undefined || walked.has(real)) continue;
          walked.add(real);
          if (placeOf(real, mine.places) === undefined)
            mine.places.push({ at: real, shown: shownOf(path, mine.home) });
          const s = statOrNone(real);
          if (s?.isDirectory()) {
            if (depth < MAX_PRIVATE_DEPTH) walk(real, depth + 1);
            else short = `folders more than ${MAX_PRIVATE_DEPTH} deep`;
          } else if (s) add(s, real);
          if (short !== undefined) return;
          continue;
        }
        if (entry.isDirectory()) {
          if (skipped.has(path)) continue;
          if (depth < MAX_PRIVATE_DEPTH) walk(path, depth + 1);
          else short = `folders more than ${MAX_PRIVATE_DEPTH} deep`;
          if (short !== undefined) return;
          continue;
        }
        const s = statOrNone(path);
        if (s) add(s, path);
        if (short !== undefined) return;
      }
    } catch {
      // A folder that cannot be read on: what was seen of it stands.
    } finally {
      d.closeSync();
    }
  };
  for (const place of new Set(mine.places.flatMap((p) => (p.byName ? [] : [p.at])))) {
    if (short !== undefined) break;
    if (walked.has(place)) continue;
    walked.add(place);
    const s = statOrNone(place);
    if (!s) continue;
    if (s.isDirectory()) walk(place, 1);
    else add(s, place);
  }
  const found = short === undefined ? { ids } : { ids, short };
  // A look cut by one reader's deadline is not kept: the render's others (the builtin layer's,
  // read with none) look again rather than refuse their files of more than one name.
  if (!cutByDeadline) mine.identities = found;
  return found;
}

/**
 * The door's one rule for a file of yours (read with no repository's reach), and for a repository's by its places alone:
 * refused when its real path (`real`, after every link) lies at or below a
 * private place of your home ({@link YOUR_PRIVATE_PLACES}), or when it has
 * more than one name (`s.nlink`) and is one of the files there, compared by
 * device and inode (a hard link's other names cannot be seen from it); a
 * file with more than one name that could not be compared with all of them
 * is refused too. A `named` path lying, as named, in a place is refused before
 * its links are followed; and the places are walked once per render
 * ({@link withPrivateLook}) whatever the file of yours, since a link found
 * there makes what it leads to private too (review rev103a F1). A repository's file (read with its reach) is held to
 * the places alone, `byIdentity` false, whatever the root: a session root that
 * is, or holds, your home folder (the hook's `cwd` `~` or `/`) made
 * `~/.ssh/AGENTS.md` a context file of that root's (review rev104d F2); the
 * walk is left to your own files, where a hard link or a link inside a place
 * leads out of it.
 */
export function yourPrivateRefusal(
  real: string,
  s: Pick<Stats, "dev" | "ino" | "nlink">,
  at: YoursAt,
  named?: string,
  byIdentity = true,
): Refusal | undefined {
  const mine = yourPrivate(at);
  // The path as named (`@~/.ssh/id_ed25519`), before its links are followed (review rev103a F1).
  const namedAt =
    named !== undefined && isAbsolute(named) ? placeOf(named, mine.places) : undefined;
  if (namedAt !== undefined) {
    const below = toPosix(relative(namedAt.at, named as string));
    return privateRefusal(`it is ${below === "" ? namedAt.shown : `${namedAt.shown}/${below}`}`);
  }
  // Any file of yours read for an agent dir (its layer, AGENTS.md, rules, skills, prompt templates,
  // your home's instruction files), named in your home or agent dir, whose links lead out of both
  // (`APPEND_SYSTEM.md -> /run/secrets/db_password`, a kit cloned as `~/.pi/agent` whose
  // `AGENTS.md` links there): refused, as an import leading there is (review rev104a F2), for
  // every reader, not a flag each must remember (review rev107a F2); unless it leads into Nix's or
  // Guix's store or your stowed dotfiles. A target in a checkout never gets here as yours: its door
  // reads it, with its reach (`byIdentity` false), before this check (`placeOwnFile`).
  if (
    at.agentDir !== undefined &&
    byIdentity &&
    named !== undefined &&
    isAbsolute(named) &&
    [...mine.homes, ...mine.dirs].some((top) => isWithin(named, top)) &&
    ![...mine.homes, ...mine.dirs].some((top) => isWithin(real, top)) &&
    !inReadOnlyStore(real) &&
    !(mine.homes.length > 0 && at.mirrored?.(named, mine.homes))
  ) {
    return linkOutOfYours(named, real, mine.homes.length === 0 ? mine.home : undefined);
  }
  // The walk adds to the places what links in them lead to, so it comes first (rev103a F1).
  const { ids, short } = byIdentity ? identitiesOf(mine, at.signal) : { ids: new Map() };
  const place = placeOf(real, mine.places);
  if (place !== undefined) {
    const below = toPosix(relative(place.at, real));
    const shown = below === "" ? place.shown : `${place.shown}/${below}`;
    return privateRefusal(`it resolves to ${toPosix(real)}, ${shown}`);
  }
  if (!byIdentity) return undefined;
  // A file of yours inside a git folder by its contents, whatever its name (a bare dotfiles
  // repository `~/.cfg`, a mirror `~/repos/app.git`, a `--separate-git-dir`): its `config` holds
  // the remotes' tokens; refused, trusted or not (review rev109f F2).
  mine.gitDirs ??= new Map();
  const gitDir = gitFolderAbove(real, mine.homes, mine.gitDirs);
  if (gitDir !== undefined) return gitFolderWords(real, gitDir);
  if (!(s.nlink > 1)) return undefined;
  const same = ids.get(`${s.dev}:${s.ino}`);
  if (same !== undefined) {
    return privateRefusal(`it is another name (a hard link) of ${shownOf(same, mine.home)}`);
  }
  // A file of yours with more than one name, read for an agent dir (a kit's `AGENTS.md`, your
  // `~/.claude/rules/team.md` or `~/.agents/skills/x/SKILL.md` a hard link to
  // `/srv/app/db_password`, as Python's `tarfile` makes from a member naming it): its real path
  // is its own name, so no link leads out, yet its other names may lie anywhere; refused as a
  // checkout's door refuses one (review rev108b F4), in your home's folders as in the agent dir
  // (review rev109f F7); not in a read-only store, whose optimiser gives every file a second name
  // under `/nix/store/.links` (review rev109f F6).
  if (at.agentDir !== undefined && !inReadOnlyStore(real)) return namesRefusal(s, real);
  if (short === undefined) return undefined;
  return privateRefusal(
    `it has ${s.nlink} names (hard links to one file) and your private files could not all be compared with it (${short}), so it may be one`,
  );
}

/**
 * The read-only package stores a home manager links your files into: Nix's, where home-manager
 * puts them (`~/.pi/agent/SYSTEM.md -> /nix/store/…-home-manager-files/.pi/agent/SYSTEM.md`),
 * and Guix's, where Guix Home does (`/gnu/store/…-home-files/…`, review rev108b F7):
 * world-readable and read-only by design, built from your own configuration, never a place for
 * secrets (they go through sops-nix or agenix to /run), so a layer file of yours leading there is
 * read as yours (lead, fx106a).
 */
export const READ_ONLY_STORES: string[] = ["/nix/store", "/gnu/store"];

/** Whether `real` lies in a {@link READ_ONLY_STORES} store (tests add a folder of theirs to the list). */
function inReadOnlyStore(real: string): boolean {
  return READ_ONLY_STORES.some((store) => isWithin(real, store));
}

/**
 * The git folder `real` lies in, known by its contents as git's `is_git_directory` knows one (a
 * `HEAD` file, `objects/` and `refs/` folders), whatever its name: the nearest of `real`'s
 * folders, asked up to the first of `tops` it lies in (your home), else up to the root; each
 * folder's answer kept in `known` (a few stats a folder, once a render).
 */
export function gitFolderAbove(
  real: string,
  tops: readonly string[],
  known: Map<string, boolean> = new Map(),
): string | undefined {
  const top = tops.find((t) => isWithin(real, t));
  for (let dir = dirname(real); ; dir = dirname(dir)) {
    let is = known.get(dir);
    if (is === undefined) {
      is =
        statOrNone(join(dir, "HEAD"))?.isFile() === true &&
        statOrNone(join(dir, "objects"))?.isDirectory() === true &&
        statOrNone(join(dir, "refs"))?.isDirectory() === true;
      known.set(dir, is);
    }
    if (is) return dir;
    if ((top !== undefined && isWithin(top, dir)) || dirname(dir) === dir) return undefined;
  }
}

/** A file in a git folder (`gitDir`): never read into a prompt, trusted or not (review rev108b F2). */
export function gitFolderWords(real: string, gitDir: string): Refusal {
  return {
    reason: "private",
    code: "file-private",
    message: `it resolves to ${toPosix(real)}, inside the git folder ${toPosix(gitDir)}, which is never read into a prompt (it holds the repository's remotes and their tokens)`,
  };
}

/** `topHome`: your home folder when it is the top of the file system, and so not yours ({@link yourHomeFolders}). */
function linkOutOfYours(named: string, real: string, topHome?: string): Refusal {
  return {
    reason: "outside",
    code: "file-outside-project",
    message:
      topHome === undefined
        ? `${toPosix(named)} leads by its links to ${toPosix(real)}, out of your home folder and your agent dir: a file of yours is read only within them, as its imports are`
        : `${toPosix(named)} leads by its links to ${toPosix(real)}, out of your agent dir (${HOME_IS_TOP(topHome)}): a file of yours is read only within it, as its imports are`,
  };
}

/**
 * Why a home folder at the top of the file system is not yours, in words set in brackets after
 * "your agent dir" ({@link yourHomeFolders}, review rev109a F3).
 */
export const HOME_IS_TOP = (home: string): string =>
  `your home folder is ${toPosix(home)}, the whole file system, so no file is yours by being in it`;

/** `path` as said: from `~` when in your home folder (`~/.ssh/id_rsa`), else as it is. */
function shownOf(path: string, home: string): string {
  const base = resolve(home);
  return !isFileSystemTop(base) && isWithin(path, base)
    ? `~/${toPosix(relative(base, path))}`
    : toPosix(path);
}

function privateRefusal(what: string): Refusal {
  return {
    reason: "private",
    code: "file-private",
    message: `${what}, a private file of yours (keys, tokens, credentials: ${YOUR_PRIVATE_PLACES.slice(
      0,
      3,
    )
      .map((p) => `~/${p}`)
      .join(
        ", ",
      )} and the like), which is never read into a prompt, whoever's file names it, yours included`,
  };
}
