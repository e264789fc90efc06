import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { run } from "../../src/cli/main.js";
import { NOW } from "../api/_helpers.js";

/**
 * The CLI has no flag for the machine, so the environment section reads
 * `process.platform` / `process.arch`; they are pinned here for the file.
 */
export function pinMachine(): void {
  const saved = {
    platform: Object.getOwnPropertyDescriptor(process, "platform"),
    arch: Object.getOwnPropertyDescriptor(process, "arch"),
  };
  beforeAll(() => {
    Object.defineProperty(process, "platform", { value: "linux", configurable: true });
    Object.defineProperty(process, "arch", { value: "x64", configurable: true });
  });
  afterAll(() => {
    if (saved.platform) Object.defineProperty(process, "platform", saved.platform);
    if (saved.arch) Object.defineProperty(process, "arch", saved.arch);
  });
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in `<root>/project` with a pinned clock, agent dir and home
 * (`--agent-dir` and `--now` go right after the command unless `pinned` is false or `argv`
 * gives them).
 */
export async function cli(root: string, argv: string[], pinned = true): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const [command = "render", ...rest] = argv;
  // A flag the case gives itself is not pinned: a flag of one value given twice is a usage error.
  const pins: [string, string][] = [
    ["--agent-dir", join(root, "agent")],
    ["--now", NOW],
  ];
  const flags = pinned ? pins.filter(([flag]) => !rest.includes(flag)).flat() : [];
  // An explicit --agent-dir or a --cwd that does not exist is a usage error.
  for (const dir of ["project", "agent"]) mkdirSync(join(root, dir), { recursive: true });
  const code = await run([command, ...flags, ...rest], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    cwd: join(root, "project"),
    env: {},
    home: join(root, "home"),
    machine: { platform: "linux", arch: "x64" },
  });
  return { code, stdout, stderr };
}

/** The line every usage error (exit 2) ends with, after the mistake: the command's usage and its help. */
export function usageHint(command: string, usage = "[options]"): string {
  return `Usage: sysprompt ${command} ${usage}; see \`sysprompt ${command} --help\`.\n`;
}
