/**
 * Git's own exception to its ownership check: the `safe.directory` entries of
 * your protected git config (system and global, and the command-line scope of
 * `GIT_CONFIG_COUNT`), never a repository's. Read as your files, by this
 * process, with no program run (review rev64f F2: root in a container over a
 * bind-mounted clone of uid 1000, with `safe.directory = *` in the global
 * config as `actions/checkout` writes it, was git's repository but no project
 * root here).
 */
import { isAbsolute, join, resolve } from "node:path";
import { pushAll } from "../_arrays.js";
import { readTextFile, realpathOrSelf } from "../_fs.js";
import { realpath } from "../_io.js";
import { isWithin } from "../_paths.js";

/** A config file is read up to this size; a larger one is taken as giving no entry. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The `safe.directory` values of one git config file's text, in order: a
 * string, or `null` for a key with no `=` (git's "no value", which resets the
 * list as an empty value does). `[safe]` only (section and key names in any
 * case; `[safe "x"]` is another section), values unquoted and unescaped as
 * git reads them (`"…"`, `\\`, `\"`, `\n`, `\t`, `\b`, a `\` ending the line
 * continues it, `#` and `;` outside quotes start a comment, each white-space
 * character outside quotes one space, the run at the end dropped). A line
 * git refuses (an unknown escape, an unclosed quote or section, a bad key)
 * makes the whole text `undefined`: git stops there, and then takes no
 * repository at all. `[include]` and `[includeIf]` are not followed.
 */
export function safeDirectoryEntries(text: string): (string | null)[] | undefined {
  return configValues(text, "safe", "directory");
}

/**
 * The values of `<section>.<key>` (both lower case, no subsection) in one git
 * config file's text, in order, read as {@link safeDirectoryEntries} reads
 * `safe.directory`; undefined where git would refuse the text.
 */
export function configValues(
  text: string,
  wantSection: string,
  wantKey: string,
): (string | null)[] | undefined {
  const out: (string | null)[] = [];
  let section = "";
  let i = 0;
  const n = text.length;
  const space = (c: string | undefined) =>
    c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v";
  while (i < n) {
    const c = text[i];
    if (space(c) || c === "\n") {
      i++;
      continue;
    }
    if (c === "#" || c === ";") {
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    if (c === "[") {
      const close = text.indexOf("]", i);
      const line = text.indexOf("\n", i);
      if (close < 0 || (line >= 0 && line < close)) return undefined;
      const header = text.slice(i + 1, close);
      // `[safe]` or `[safe.x]` / `[safe "x"]` (a subsection: not safe.directory).
      section = /^[A-Za-z0-9.-]+$/.test(header) ? header.toLowerCase() : `${header}\0sub`;
      i = close + 1;
      continue;
    }
    const key = /^[A-Za-z][A-Za-z0-9-]*/.exec(text.slice(i, i + 256))?.[0];
    if (key === undefined) return undefined;
    i += key.length;
    while (i < n && space(text[i])) i++;
    let value: string | null = null;
    if (text[i] === "=") {
      const parsed = parseValue(text, i + 1);
      if (parsed === undefined) return undefined;
      value = parsed.value;
      i = parsed.end;
    } else if (i < n && text[i] !== "\n" && text[i] !== "#" && text[i] !== ";") return undefined;
    if (section === wantSection && key.toLowerCase() === wantKey) out.push(value);
  }
  return out;
}

/** A value from after its `=` to its line's end (continuations followed), as git's parser reads it. */
function parseValue(text: string, from: number): { value: string; end: number } | undefined {
  let value = "";
  let quoted = false;
  let comment = false;
  let spaces = 0;
  let i = from;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") {
      if (quoted) return undefined;
      break;
    }
    if (comment) continue;
    if (!quoted && (c === ";" || c === "#")) {
      comment = true;
      continue;
    }
    if (!quoted && (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v")) {
      if (value.length > 0) spaces++;
      continue;
    }
    value += " ".repeat(spaces);
    spaces = 0;
    if (c === '"') {
      quoted = !quoted;
      continue;
    }
    if (c !== "\\") {
      value += c;
      continue;
    }
    const next = text[++i];
    if (next === "\n") continue;
    const escaped = next === undefined ? undefined : ESCAPES[next];
    if (escaped === undefined) return undefined;
    value += escaped;
  }
  if (quoted) return undefined;
  return { value, end: i };
}

const ESCAPES: Record<string, string> = { "\\": "\\", '"': '"', n: "\n", t: "\t", b: "\b" };

/**
 * The config files git takes `safe.directory` from, in its order: the
 * system file (`$GIT_CONFIG_SYSTEM`, else `/etc/gitconfig`; none with
 * `GIT_CONFIG_NOSYSTEM` true), then the global ones (`$GIT_CONFIG_GLOBAL`
 * alone, else `$XDG_CONFIG_HOME/git/config`, or `~/.config/git/config`,
 * then `~/.gitconfig`).
 */
export function protectedConfigFiles(env: Readonly<Record<string, string | undefined>>): string[] {
  const files: string[] = [];
  const noSystem = (env.GIT_CONFIG_NOSYSTEM ?? "").toLowerCase();
  if (!["1", "true", "yes", "on"].includes(noSystem)) {
    files.push(env.GIT_CONFIG_SYSTEM || "/etc/gitconfig");
  }
  const home = env.HOME || undefined;
  if (env.GIT_CONFIG_GLOBAL !== undefined) {
    if (env.GIT_CONFIG_GLOBAL !== "") files.push(env.GIT_CONFIG_GLOBAL);
    return files;
  }
  const xdg = env.XDG_CONFIG_HOME || (home === undefined ? undefined : join(home, ".config"));
  if (xdg !== undefined) files.push(join(xdg, "git", "config"));
  if (home !== undefined) files.push(join(home, ".gitconfig"));
  return files;
}

/**
 * Whether git's `safe.directory` list names the repository whose top is
 * `dir`, as git (2.46 on) reads it: the entries of your protected config
 * ({@link protectedConfigFiles}, then `GIT_CONFIG_COUNT`'s `GIT_CONFIG_KEY_<n>`
 * and `GIT_CONFIG_VALUE_<n>`) in order, an empty value (or none) clearing
 * what came before, `*` naming every folder, `~/` expanded to `$HOME`, an
 * absolute path naming the folder of that real path, one ending in `/*`
 * every folder below it, `.` the working folder; a relative or `%(prefix)/`
 * path names none here. A file whose real path lies in `dir` is the
 * repository's, not yours, and is not read (HOME inside the checkout); one
 * git could not parse makes the answer no.
 */
export async function namedSafeDirectory(
  dir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<boolean> {
  const realDir = await realpathOrSelf(dir);
  const entries: (string | null)[] = [];
  for (const file of protectedConfigFiles(env)) {
    const read = await readTextFile(file, MAX_CONFIG_BYTES);
    if (!read.ok) {
      if (read.reason === "missing") continue;
      return false;
    }
    const real = await realpath(file).catch(() => resolve(file));
    if (isWithin(real, realDir) || isWithin(resolve(file), dir)) continue;
    const found = safeDirectoryEntries(read.text);
    if (found === undefined) return false;
    pushAll(entries, found);
  }
  const count = Number(env.GIT_CONFIG_COUNT ?? "0");
  for (let k = 0; Number.isSafeInteger(count) && k < Math.min(count, 1000); k++) {
    if (env[`GIT_CONFIG_KEY_${k}`]?.toLowerCase() === "safe.directory") {
      entries.push(env[`GIT_CONFIG_VALUE_${k}`] ?? "");
    }
  }
  let safe = false;
  for (const entry of entries) {
    if (entry === null || entry === "") safe = false;
    else if (entry === "*") safe = true;
    else if (await namesFolder(entry, realDir, env.HOME)) safe = true;
  }
  return safe;
}

/**
 * The `core.excludesFile` your protected config sets ({@link protectedConfigFiles},
 * then `GIT_CONFIG_COUNT`'s), the last value as git takes it, `~/` expanded to
 * `home`: `{ set: false }` when none sets it (git reads its default), `{ set: true,
 * file: undefined }` for an empty value (git reads none), and `unsure` when a
 * config file is there but cannot be read or parsed as git would (git itself
 * stops there). A file `skip` says is not yours (it lies in the project: `HOME`
 * inside the checkout) is not read. `[include]` is not followed.
 */
export async function yourExcludesFile(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
  skip: (file: string) => Promise<boolean>,
): Promise<{ set: false } | { set: true; file: string | undefined } | { unsure: string }> {
  const values: (string | null)[] = [];
  for (const file of protectedConfigFiles({ ...env, HOME: home })) {
    const read = await readTextFile(file, MAX_CONFIG_BYTES);
    if (!read.ok) {
      if (read.reason === "missing") continue;
      return { unsure: `${file} could not be read for core.excludesFile` };
    }
    if (await skip(file)) continue;
    const found = configValues(read.text, "core", "excludesfile");
    if (found === undefined) return { unsure: `${file} is no git config git would read` };
    pushAll(values, found);
  }
  const count = Number(env.GIT_CONFIG_COUNT ?? "0");
  for (let k = 0; Number.isSafeInteger(count) && k < Math.min(count, 1000); k++) {
    if (env[`GIT_CONFIG_KEY_${k}`]?.toLowerCase() === "core.excludesfile") {
      values.push(env[`GIT_CONFIG_VALUE_${k}`] ?? "");
    }
  }
  if (values.length === 0) return { set: false };
  const last = values[values.length - 1];
  // A key with no value is an error to git for a path: it stops there.
  if (last === null || last === undefined)
    return { unsure: "core.excludesFile is set with no value" };
  if (last === "") return { set: true, file: undefined };
  return { set: true, file: expandHome(last, home) };
}

/** A config path with `~/` expanded to `home`, as git expands it; anything else as written. */
export function expandHome(value: string, home: string): string {
  return value === "~" ? home : value.startsWith("~/") ? join(home, value.slice(2)) : value;
}

/** Whether one `safe.directory` path names the folder of real path `realDir`. */
async function namesFolder(
  value: string,
  realDir: string,
  home: string | undefined,
): Promise<boolean> {
  let path = value;
  if (path.startsWith("~/")) {
    if (home === undefined || home === "") return false;
    path = join(home, path.slice(2));
  }
  if (path !== "." && !isAbsolute(path)) return false;
  const below = path.endsWith("/*");
  const named = below ? path.slice(0, -1) : path;
  const real = await realpath(resolve(named)).catch(() => undefined);
  if (real === undefined) return false;
  if (!below) return real === realDir;
  const prefix = real.endsWith("/") ? real : `${real}/`;
  return realDir.startsWith(prefix);
}
