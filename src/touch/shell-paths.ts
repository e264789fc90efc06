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

/** Where a shell word ends: white space, operators, redirections, subshells, backquotes. */
const SHELL_BREAK = /[\s;|&<>()`]+/;
/** Where one simple command ends and the next begins (for `cd DIR && …`). */
const COMMAND_BREAK = /(?:&&|\|\||[;|&\n])/;
/** A character that makes the shell change the word (variables, globs, braces, history, escapes). */
const SHELL_SPECIAL = /[$*?[\]{}!\\]/;

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
  let dir = cwd;
  let seen = 0;
  const segments = options.relative ? command.split(COMMAND_BREAK) : [command];
  for (const segment of segments) {
    const words = segment.split(SHELL_BREAK).filter((w) => w !== "");
    for (let i = 0; i < words.length && seen < MAX_SHELL_WORDS; i++, seen++) {
      const word = unquote(words[i] ?? "");
      if (word.length > MAX_PATH_LENGTH || !looksLikePath(word, options.relative === true)) {
        continue;
      }
      out.push({ word, abs: resolve(dir, expandHome(word, home)) });
    }
    // `cd DIR` as a whole simple command: the words after it are relative to DIR.
    if (options.relative && words.length === 2 && words[0] === "cd") {
      const to = unquote(words[1] ?? "");
      if (!SHELL_SPECIAL.test(to) && to !== "-" && to !== "")
        dir = resolve(dir, expandHome(to, home));
    }
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
  const out: string[] = [];
  for (const { abs } of shellWords(command, cwd, home, options)) {
    if (out.length >= MAX_SHELL_PATHS) break;
    if (out.includes(abs) || !(await exists(abs))) continue;
    out.push(abs);
  }
  return out;
}

function looksLikePath(word: string, relative: boolean): boolean {
  if (
    word.startsWith("/") ||
    word.startsWith("./") ||
    word.startsWith("../") ||
    word.startsWith("~/")
  ) {
    return !relative || !SHELL_SPECIAL.test(word);
  }
  if (!relative || word.startsWith("-") || SHELL_SPECIAL.test(word) || word.includes("=")) {
    return false;
  }
  // `src/a.ts`, `README.md`: a folder part or an extension; a bare `ls` or `main` is a command.
  return !isAbsolute(word) && (word.includes("/") || /\.[A-Za-z0-9]+$/.test(word));
}

/** A word without the quotes around it (`'./a b'` stays one word only when it has no space). */
function unquote(word: string): string {
  const first = word[0];
  if ((first === "'" || first === '"') && word.endsWith(first) && word.length >= 2) {
    return word.slice(1, -1);
  }
  return word;
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
