import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SystemPromptOptions } from "../../src/options.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { createPromptSession } from "../../src/session/index.js";

// What the cases of repositories inside one another share (a clone nested in
// a workspace, a planted `.git` or `.hg`, a kit reached through your link, a
// file named in another repository): the repositories as git, Mercurial,
// Jujutsu and Subversion lay them out (no such binary needed), a home folder
// holding your key, your link to a kit, and what a render or a touch gives.

/** Your key, in the home of {@link homeWithKey}. */
export const KEY = "SECRET-MARKER-KEY";
/** The token in a remote's URL ({@link gitRepository}, {@link workingCopy}). */
export const TOKEN = "SECRET-MARKER-TOKEN";

export interface GitFolder {
  /** Also `objects/` and `refs/`: a folder git uses, whose ignore rules count (a HEAD alone does not). */
  whole?: boolean;
  /** Also `info/`, for an exclude file. */
  info?: boolean;
  /** A `config` whose remote's URL holds this token. */
  token?: string;
}

/** A git repository at `dir`: its `.git` folder holding a HEAD, and what `git` asks for. */
export function gitRepository(dir: string, { whole = false, info = false, token }: GitFolder = {}) {
  mkdirSync(join(dir, ".git"), { recursive: true });
  if (whole) {
    mkdirSync(join(dir, ".git", "objects"));
    mkdirSync(join(dir, ".git", "refs"));
  }
  if (info) mkdirSync(join(dir, ".git", "info"));
  writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
  if (token !== undefined) {
    writeFileSync(
      join(dir, ".git", "config"),
      `[remote "origin"]\n\turl = https://me:${token}@example.com/x.git\n`,
    );
  }
}

/** The other kinds of working copy a folder may be. */
export const KINDS = [
  "hg",
  "jj",
  "svn",
  "sl",
  "bzr",
  "pijul",
  "darcs",
  "fossil",
  "fossil (_FOSSIL_)",
] as const;
export type Kind = (typeof KINDS)[number];

/**
 * Where each kind keeps its marker and a remote's URL, as its tool writes them
 * (rev50a F2): the marker's path, whether it is a folder, and the file naming
 * the remote (the marker itself for Fossil, whose check-out database records it).
 */
const LAYOUTS: Record<Exclude<Kind, "hg" | "jj" | "svn">, { marker: string; remote: string }> = {
  sl: { marker: ".sl/", remote: ".sl/config" },
  bzr: { marker: ".bzr/", remote: ".bzr/branch/branch.conf" },
  pijul: { marker: ".pijul/", remote: ".pijul/config" },
  darcs: { marker: "_darcs/", remote: "_darcs/prefs/defaultrepo" },
  fossil: { marker: ".fslckout", remote: ".fslckout" },
  "fossil (_FOSSIL_)": { marker: "_FOSSIL_", remote: "_FOSSIL_" },
};

/**
 * Makes `dir` a `kind` working copy. With `token`, a file of it holds the
 * token as that kind keeps a remote's URL, and its path from `dir` is returned.
 */
export function workingCopy(kind: Kind, dir: string, token?: string): string {
  if (kind !== "hg" && kind !== "jj" && kind !== "svn") {
    const { marker, remote } = LAYOUTS[kind];
    if (marker.endsWith("/")) mkdirSync(join(dir, marker), { recursive: true });
    else mkdirSync(dir, { recursive: true });
    const path = token === undefined ? marker.replace(/\/$/, "") : remote;
    mkdirSync(join(dir, path, ".."), { recursive: true });
    if (!marker.endsWith("/") || token !== undefined) {
      writeFileSync(
        join(dir, path),
        token === undefined ? "SQLite format 3\n" : `url = https://me:${token}@example.com/k\n`,
      );
    }
    return path;
  }
  if (kind === "hg") {
    mkdirSync(join(dir, ".hg"), { recursive: true });
    writeFileSync(join(dir, ".hg", "requires"), "store\n");
    if (token === undefined) return ".hg";
    writeFileSync(
      join(dir, ".hg", "hgrc"),
      `[paths]\ndefault = https://me:${token}@example.com/k\n`,
    );
    return ".hg/hgrc";
  }
  if (kind === "jj") {
    if (token === undefined) {
      mkdirSync(join(dir, ".jj", "repo"), { recursive: true });
      return ".jj/repo";
    }
    // A Jujutsu clone made without git beside it: the remote is in its store's git folder.
    const store = join(dir, ".jj", "repo", "store", "git");
    mkdirSync(join(store, "objects"), { recursive: true });
    mkdirSync(join(store, "refs"));
    writeFileSync(join(store, "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(store, "config"), `[remote "origin"]\n\turl = https://me:${token}@x/y\n`);
    return ".jj/repo/store/git/config";
  }
  mkdirSync(join(dir, ".svn"), { recursive: true });
  writeFileSync(
    join(dir, ".svn", "wc.db"),
    token === undefined ? "x\n" : `SQLite format 3 ${token}\n`,
  );
  return ".svn/wc.db";
}

/** `root/home`, with your key at `~/.ssh/id_rsa` holding {@link KEY}. */
export function homeWithKey(root: string): string {
  const home = join(root, "home");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), `${KEY}\n`);
  return home;
}

/** Your link `~/.config/sysprompt/<name>` to `target` (a kit, as stow or you lay it out). */
export function linkKit(home: string, name: string, target: string): void {
  mkdirSync(join(home, ".config", "sysprompt"), { recursive: true });
  symlinkSync(target, join(home, ".config", "sysprompt", name));
}

/** The prompt's text, or `refused: <why>` when the render refuses. */
export async function rendered(options: SystemPromptOptions): Promise<string> {
  try {
    return (await renderSystemPrompt(options)).text;
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

/** {@link rendered}, with a line `code: message` for each of the render's diagnostics after the text. */
export async function reported(options: SystemPromptOptions): Promise<string> {
  try {
    const r = await renderSystemPrompt(options);
    return [r.text, ...r.diagnostics.map((d) => `${d.code}: ${d.message}`)].join("\n");
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

/** What a session with `options` gives the model when it touches `files`: their texts, and the diagnostics' codes. */
export async function touched(
  options: SystemPromptOptions,
  files: readonly string[],
): Promise<{ text: string; codes: string[] }> {
  const session = createPromptSession({ ...options });
  try {
    const r = await session.contextFor([...files]);
    return {
      text: r.files.map((f) => f.content).join("\n"),
      codes: r.diagnostics.map((d) => d.code),
    };
  } finally {
    session.close();
  }
}
