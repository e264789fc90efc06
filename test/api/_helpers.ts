import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SystemPromptOptions } from "../../src/options.js";

/** `test/fixtures/`, absolute. */
export const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

/** The package's builtin `prompts/` folder, where builtin section sources live. */
export const BUILTIN = fileURLToPath(new URL("../../prompts/", import.meta.url));

/** The pinned clock of every test. */
export const NOW = "2026-01-15T10:00:00Z";

const made: string[] = [];

/** Removes the temp folders made since the last call: test/_setup.ts runs it after every test of every file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temp folder (its real path, so expected paths match), removed after the test. */
export function tempDir(prefix = "sysprompt-test-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/**
 * A temp copy of `test/fixtures/<group>/<scenario>`. Scenarios are rendered
 * from a copy, not in place: context-file discovery walks every ancestor of
 * cwd and skill discovery walks up to the git root, so in place they would
 * pick up whatever AGENTS.md or `.agents/skills` the repository itself has.
 */
export function copyScenario(group: string, scenario: string): string {
  const dir = tempDir();
  cpSync(join(FIXTURES, group, scenario), dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

/** Writes each `path: text` under `root`, making the folders on the way. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/**
 * Fully pinned options for a scenario laid out as `<root>/agent` (user layer),
 * `<root>/project` (cwd, with `.pi/` as the project layer) and `<root>/home`.
 * The project and agent folders are created when missing: an explicit `cwd`
 * or `agentDir` that does not exist is an error.
 */
export function pinned(root: string, extra: SystemPromptOptions = {}): SystemPromptOptions {
  for (const dir of ["project", "agent"]) mkdirSync(join(root, dir), { recursive: true });
  return {
    cwd: join(root, "project"),
    agentDir: join(root, "agent"),
    home: join(root, "home"),
    env: {},
    now: NOW,
    machine: { platform: "linux", arch: "x64" },
    ...extra,
  };
}

/** Path of a builtin section file, as sections report it in `source.path`. */
export const builtinSection = (name: string) => join(BUILTIN, "sections", `${name}.md`);

/** The builtin sections of a default render (no docs, skills, tree or roots), in order. */
export const DEFAULT_SECTION_NAMES = [
  "preamble",
  "tools",
  "rules",
  "cwd",
  "environment",
  "date",
] as const;

export const PREAMBLE = `You are a coding agent. You work inside the user's software project: you read code, run commands, make changes and explain what you found, using the tools described below.

Work in small steps you can check: understand the request, read the code it touches, make the change, then verify it. Report plainly what you did, what you checked and what is still open.`;

export const DEFAULT_TOOLS_SECTION = `<tools>
Tools you can call:
- read: Read a file's contents; long files can be read in parts.
- bash: Run a shell command in the working directory and see its output.
- edit: Change a file by replacing an exact piece of its text.
- write: Create a file or overwrite one with new contents.
</tools>`;

export const GENERAL_RULES = [
  "Read the relevant code before you change it, and match the style already there.",
  "Keep changes to what the task needs; mention other problems you notice instead of fixing them silently.",
  "After a change, run the checks the project has (tests, type checker, linter) and report what they said.",
  "Never claim a step ran or passed when it did not.",
  "Ask before destructive or irreversible actions such as deleting files or rewriting history.",
  "Show file paths in full when you mention them.",
];

export const SHELL_RULE =
  "Use the shell to explore the project (rg or grep to search, find and ls to list), since no dedicated search tools are selected.";

export const DEFAULT_RULES_SECTION = `<rules>
Rules:
${[SHELL_RULE, ...GENERAL_RULES].map((r) => `- ${r}`).join("\n")}
</rules>`;

export const ENVIRONMENT_SECTION = `<environment>
- Operating system: Linux
- Architecture: x64
</environment>`;

export const cwdSection = (cwd: string) => `<cwd>\nCurrent working directory: ${cwd}\n</cwd>`;

export const DATE_SECTION = "<date>\nToday's date: 2026-01-15\n</date>";
