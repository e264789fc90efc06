/**
 * The paths a shell command names, read without evaluating it: no
 * expansion, no globbing, no aliases, nothing run. Shared by the pi
 * extension (bash) and `sysprompt hook` (Bash, run_shell_command, opencode's
 * bash): a word counts only when it is evidently a path and exists.
 */
import { isAbsolute, resolve } from "node:path";
import { lstat } from "../_io.js";
import { expandHome } from "../_paths.js";

/** Most words of one command looked at, and most paths taken from them. */
export const MAX_SHELL_WORDS = 256;
export const MAX_SHELL_PATHS = 16;
/** A word longer than this is no path (PATH_MAX on Linux). */
const MAX_PATH_LENGTH = 4096;
/** Characters of a command looked at: one argument of `sh -c` holds at most 128 KiB on Linux (MAX_ARG_STRLEN). */
export const MAX_SHELL_COMMAND = 256 * 1024;

/** Characters that end a word outside quotes: operators, redirections, subshells, backquotes. */
const OPERATORS = new Set([";", "|", "&", "<", ">", "(", ")", "`", "\n"]);
/** Characters that end a simple command (for `cd DIR && …`). */
const COMMAND_ENDS = new Set([";", "|", "&", "\n", "(", ")", "`"]);
/** Unquoted, these make the shell change the word (variables, globs, braces, history). */
const SHELL_SPECIAL = /[$*?[\]{}!]/;

/** One word of a command: its text after quote removal, whether the shell would change it, and whether a command ended before it. */
interface Word {
  text: string;
  special: boolean;
  first: boolean;
}

/**
 * The words of `command`, quotes removed, as a POSIX shell splits them
 * (single and double quotes, backslash escapes, operators), without any
 * expansion: a word with an unquoted `$`, glob or brace character, or a `$`
 * or backquote inside double quotes, is marked special. Pure.
 */
export function splitShell(command: string, maxWords = MAX_SHELL_WORDS): Word[] {
  const words: Word[] = [];
  let text = "";
  let special = false;
  let inWord = false;
  let first = true;
  // A word past PATH_MAX is no path: it stops growing (a 20 MB word, a character at a time, took 10 s).
  let long = false;
  const add = (s: string) => {
    if (long || text.length + s.length > MAX_PATH_LENGTH) long = true;
    else text += s;
  };
  const end = () => {
    if (inWord) words.push({ text, special: special || long, first });
    if (inWord) first = false;
    text = "";
    special = false;
    long = false;
    inWord = false;
  };
  const length = Math.min(command.length, MAX_SHELL_COMMAND);
  // The quote kinds found unterminated: one later is no quote either, and is not looked for again.
  const open = new Set<string>();
  /**
   * A quote with no end as read here (`"$(cat <<'EOF'` whose text holds a `"`, a typo): its
   * word is special, and the rest is read on as words, counted and cut as the others (before,
   * nothing after it was read, and the paths it names were neither given nor said: fx80b).
   */
  const unterminated = (q: string) => {
    open.add(q);
    special = true;
    inWord = true;
  };
  for (let i = 0; i < length && words.length < maxWords; i++) {
    const c = command[i] ?? "";
    if ((c === "'" || c === '"') && open.has(c)) {
      unterminated(c);
    } else if (c === "'") {
      const close = command.indexOf("'", i + 1);
      if (close === -1 || close >= length) {
        unterminated(c);
        continue;
      }
      if (close - i - 1 > MAX_PATH_LENGTH) long = true;
      else add(command.slice(i + 1, close));
      inWord = true;
      i = close;
    } else if (c === '"') {
      const before: { text: string; long: boolean } = { text, long };
      let j = i + 1;
      for (; j < length && command[j] !== '"'; j++) {
        const d = command[j] ?? "";
        if (d === "\\" && j + 1 < length) add(command[++j] ?? "");
        else {
          if (d === "$" || d === "`") special = true;
          add(d);
        }
      }
      if (j >= length) {
        // Read on from the quote, as if it were not there: what the scan added is dropped.
        unterminated(c);
        ({ text, long } = before);
        continue;
      }
      inWord = true;
      i = j;
    } else if (c === "\\") {
      if (i + 1 < command.length && command[i + 1] !== "\n") add(command[i + 1] ?? "");
      inWord = true;
      i++;
    } else if (c === " " || c === "\t" || c === "\r") {
      end();
    } else if (OPERATORS.has(c)) {
      end();
      if (COMMAND_ENDS.has(c)) first = true;
    } else if (c === "#" && !inWord) {
      // A comment runs to the end of the line.
      const nl = command.indexOf("\n", i);
      if (nl === -1) break;
      i = nl - 1;
    } else {
      if (SHELL_SPECIAL.test(c) || (c === "~" && inWord)) special = true;
      add(c);
      inWord = true;
    }
  }
  // A word the cut ends in may be longer: it is not guessed at.
  if (command.length > length) long = true;
  end();
  return words;
}

export interface ShellPathOptions {
  /**
   * Also words without a leading `/`, `./`, `../` or `~/` that hold a `/` or
   * a `.` (`src/a.ts`, `README.md`), and `cd DIR` moving where the words that
   * follow are resolved. Default: false (pi's bash: only evidently written paths).
   */
  relative?: boolean;
}

/**
 * The candidate words of `command`, each with the folder it is relative to
 * (`cwd`, or where a literal `cd` before it moved): pure, no file system.
 */
export function shellWords(
  command: string,
  cwd: string,
  home: string,
  options: ShellPathOptions = {},
): { word: string; abs: string }[] {
  const out: { word: string; abs: string }[] = [];
  const relative = options.relative === true;
  const words = splitShell(command);
  let dir = cwd;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as Word;
    // `cd DIR` as a whole simple command: the words after it are relative to DIR.
    const next = words[i + 1];
    if (
      relative &&
      w.first &&
      w.text === "cd" &&
      next &&
      !next.special &&
      (words[i + 2]?.first ?? true)
    ) {
      if (next.text !== "-" && next.text !== "") dir = resolve(dir, expandHome(next.text, home));
      i++;
      continue;
    }
    if (w.special || w.text.length > MAX_PATH_LENGTH || !looksLikePath(w.text, relative)) continue;
    out.push({ word: w.text, abs: resolve(dir, expandHome(w.text, home)) });
  }
  return out;
}

/**
 * The paths `command` names that exist, absolute, each once, at most
 * {@link MAX_SHELL_PATHS}: see {@link shellWords}. Anything the shell would
 * change (`$VAR/x`, `*.ts`, `a\ b`) and words inside a quoted string with a
 * space are not guessed at.
 */
export async function shellPaths(
  command: string,
  cwd: string,
  home: string,
  options: ShellPathOptions = {},
): Promise<string[]> {
  return (await shellPathsCounted(command, cwd, home, options, false)).paths;
}

/**
 * How many existing paths `command` names past {@link MAX_SHELL_PATHS}
 * (what {@link shellPaths} leaves out): 0 without a look at the disk when it
 * names no more candidate words than that.
 */
export async function shellPathsLeft(
  command: string,
  cwd: string,
  home: string,
  options: ShellPathOptions = {},
): Promise<number> {
  return (await shellPathsCounted(command, cwd, home, options, true)).left;
}

/**
 * {@link shellPaths} (`count` false), or only how many more existing paths
 * the command names past {@link MAX_SHELL_PATHS} (`count`: no paths when it
 * names no more candidate words than that, and no look at the disk).
 */
async function shellPathsCounted(
  command: string,
  cwd: string,
  home: string,
  options: ShellPathOptions = {},
  count = true,
): Promise<{ paths: string[]; left: number }> {
  const out: string[] = [];
  const words = shellWords(command, cwd, home, options);
  const more = count && new Set(words.map((w) => w.abs)).size > MAX_SHELL_PATHS;
  if (count && !more) return { paths: [], left: 0 };
  let left = 0;
  const seen = new Set<string>();
  for (const { abs } of words) {
    if (out.length >= MAX_SHELL_PATHS && !more) break;
    if (seen.has(abs)) continue;
    seen.add(abs);
    if (!(await exists(abs))) continue;
    if (out.length < MAX_SHELL_PATHS) out.push(abs);
    else left++;
  }
  return { paths: out, left };
}

function looksLikePath(word: string, relative: boolean): boolean {
  if (
    word.startsWith("/") ||
    word.startsWith("./") ||
    word.startsWith("../") ||
    word.startsWith("~/")
  ) {
    return true;
  }
  if (!relative || word.startsWith("-") || word.includes("=") || word.includes("\0")) return false;
  // `src/a.ts`, `README.md`: a folder part or an extension; a bare `ls` or `main` is a command.
  return !isAbsolute(word) && (word.includes("/") || /\.[A-Za-z0-9]+$/.test(word));
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    // Missing, or not ours to look at: not evidently a path.
    return false;
  }
}
