import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "../../src/cli/main.js";
import type { SystemPromptOptions } from "../../src/options.js";
import { tempDir } from "../api/_helpers.js";

/** `test/fixtures/resources/`, absolute. */
export const FIXTURES = fileURLToPath(new URL("../fixtures/resources/", import.meta.url));

/** The pinned clock of every render in this folder. */
export const NOW = "2026-01-15T10:00:00Z";

/**
 * A temp copy (real path) of `test/fixtures/resources/<scenario>`, laid out as
 * `agent/` (user layer), `project/` (cwd, `.pi/` inside) and `home/`. Copied
 * because skill discovery walks from cwd up to the git root, and in place it
 * would reach this repository's own folders.
 */
export function copyScenario(scenario: string): string {
  const dir = tempDir("sysprompt-resources-");
  cpSync(join(FIXTURES, scenario), dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI with captured output, cwd `<root>/project`, home `<root>/home`
 * and the given environment (empty by default), so the real home and
 * environment are never read. `ROOT` in an argument is replaced by `root`.
 */
export async function cli(
  root: string,
  argv: readonly string[],
  env: Record<string, string> = {},
): Promise<CliOutcome> {
  let stdout = "";
  let stderr = "";
  const code = await run(
    argv.map((arg) => arg.replaceAll("ROOT", root)),
    {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      cwd: join(root, "project"),
      env,
      home: join(root, "home"),
    },
  );
  return { code, stdout, stderr };
}

/** Fully pinned render options for a scenario root (see {@link copyScenario}). */
export function pinned(root: string, extra: SystemPromptOptions = {}): SystemPromptOptions {
  return {
    cwd: join(root, "project"),
    agentDir: join(root, "agent"),
    home: join(root, "home"),
    env: {},
    now: NOW,
    environment: [{ label: "Platform", value: "linux x64" }],
    ...extra,
  };
}

/** The stderr of `expand` and `list` over `list-reports-collisions-and-bad-files`. */
export function collisionsAndBadFilesStderr(root: string): string {
  return [
    `warning ${root}/project/.pi/prompts/broken.md:2:1 [frontmatter-not-mapping] prompt template skipped: frontmatter must be a YAML mapping of keys to values`,
    `warning ${root}/project/.pi/prompts/review.md [user-text-left-out] your prompt template "/review" (${root}/agent/prompts/review.md) is left out: the project's ${root}/project/.pi/prompts/review.md of the same name takes its place (a trusted project's template of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back`,
    `warning ${root}/project/.pi/skills/Bad_Name/SKILL.md [skill-name-invalid] name "Bad_Name" should use only lowercase letters a-z, digits 0-9 and hyphens`,
    `error ${root}/project/.pi/skills/no-description/SKILL.md [skill-description-required] description is required; skill not loaded`,
    `warning ${root}/project/.pi/skills/lint/SKILL.md [user-text-left-out] your skill "lint" (${root}/agent/skills/lint/SKILL.md) is left out: the project's ${root}/project/.pi/skills/lint/SKILL.md of the same name takes its place (a trusted project's skill of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back`,
    "",
  ].join("\n");
}
