import {
  mkdirSync,
  readFileSync,
  realpathSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectFolderName } from "../../src/agents/export.js";
import { run } from "../../src/cli/main.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { until } from "../author/_until.js";
import { cli, pinMachine, usageHint } from "./_run.js";

pinMachine();

/** An hour before now: a rewrite within the same millisecond still shows in the mtime. */
const OLD = new Date(Date.now() - 3_600_000);

/** Codex's default export file for the project at `root/project`. */
const exported = (root: string) =>
  join(
    root,
    "home/.cache/sysprompt/export/codex",
    projectFolderName(realpathSync(join(root, "project"))),
    "instructions.md",
  );

function pin(path: string) {
  utimesSync(path, OLD, OLD);
  const s = statSync(path);
  return { ino: s.ino, mtimeMs: s.mtimeMs };
}

describe("sysprompt watch --export", { timeout: 30_000 }, () => {
  it("re-exports on every change that alters the bytes, and only then", async () => {
    const root = tempDir();
    for (const dir of ["project/.git", "project/.pi/sections", "agent", "home"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    const team = join(root, "project/.pi/sections/team.md");
    const agents = join(root, "project/AGENTS.md");
    writeFileSync(team, "---\norder: 65\n---\nTeam: small.\n");
    writeFileSync(agents, "Run npm test.\n");
    const path = exported(root);
    let stdout = "";
    const controller = new AbortController();
    const done = run(
      ["watch", "--export", "--agent", "codex", "--agent-dir", join(root, "agent"), "--now", NOW],
      {
        stdout: (text) => {
          stdout += text;
        },
        stderr: () => {},
        cwd: join(root, "project"),
        env: {},
        home: join(root, "home"),
        machine: { platform: "linux", arch: "x64" },
        signal: controller.signal,
      },
    );
    await until(() => stdout.includes(`exported ${path}\n`), "the first export");
    expect(
      stdout.startsWith(
        `exporting to ${path}; for codex, add this line to the codex command line, when you start it in this project (the file holds this project's prompt; as model_instructions_file in ~/.codex/config.toml it would be every project's):\ncodex -c model_instructions_file=${path}\n`,
      ),
    ).toBe(true);
    expect(readFileSync(path, "utf8")).toContain("Team: small.");
    const first = pin(path);

    // Codex reads AGENTS.md itself: a change there re-renders, but the bytes are the same.
    writeFileSync(agents, "Run npm test, then lint.\n");
    await until(() => stdout.includes("export unchanged\n"), "the unchanged re-render");
    expect(pin(path)).toEqual(first);

    writeFileSync(team, "---\norder: 65\n---\nTeam: two people.\n");
    await until(() => stdout.split(`exported ${path}\n`).length === 3, "the second export");
    expect(readFileSync(path, "utf8")).toContain("Team: two people.");
    expect(statSync(path).mtimeMs).not.toBe(first.mtimeMs);
    controller.abort();
    expect(await done).toBe(0);
  });

  it("--export without --agent, or for pi, is exit 2 before anything is watched", async () => {
    const root = tempDir();
    expect((await cli(root, ["watch", "--export"])).code).toBe(2);
    const pi = await cli(root, ["watch", "--export", "--agent", "pi"]);
    expect(pi.code).toBe(2);
    expect(pi.stdout).toBe("");
    expect((await cli(root, ["watch", "--out", "x.md"])).stderr).toBe(
      `sysprompt: --out is where --export writes: pass --export too\n${usageHint("watch")}`,
    );
  });

  it("takes the agent from sysprompt.yaml's agent: when no --agent is given", async () => {
    const root = tempDir();
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(join(root, "agent/sysprompt.yaml"), "agent: codex\n");
    mkdirSync(join(root, "project"), { recursive: true });
    const path = exported(root);
    let stdout = "";
    const controller = new AbortController();
    const done = run(["watch", "--export", "--agent-dir", join(root, "agent"), "--now", NOW], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => {},
      cwd: join(root, "project"),
      env: {},
      home: join(root, "home"),
      machine: { platform: "linux", arch: "x64" },
      signal: controller.signal,
    });
    await until(() => stdout.includes(`exported ${path}\n`), "the first export");
    expect(stdout.startsWith(`exporting to ${path}; for codex,`)).toBe(true);
    controller.abort();
    expect(await done).toBe(0);
  });
});

describe("sysprompt watch --export with a bad agent: in sysprompt.yaml", {
  timeout: 30_000,
}, () => {
  it("says the file and line and stops before watching, exit 1; a bad --agent stays exit 2", async () => {
    const root = tempDir();
    mkdirSync(join(root, "agent"), { recursive: true });
    const file = join(root, "agent/sysprompt.yaml");
    writeFileSync(file, "agent: nope\n");
    const out = await cli(root, ["watch", "--export"]);
    expect(out).toEqual({
      code: 1,
      stdout: "",
      stderr: `error ${file}:1 [config-bad-value] agent: no preset named "nope". The presets are: claude-code, codex, gemini-cli, opencode, pi (a new one is a file agents/<name>.yaml in the agent dir or the project's .pi/); the key is ignored\nsysprompt: nothing exported: the agent: at ${file}:1 names no preset (see above); fix it there, or pass --agent NAME\n`,
    });
    const flag = await cli(root, ["watch", "--export", "--agent", "nope"]);
    expect([flag.code, flag.stdout]).toEqual([2, ""]);
    expect(flag.stderr.endsWith(usageHint("watch"))).toBe(true);
  });
});

describe("sysprompt watch --agent", { timeout: 30_000 }, () => {
  it("re-renders when the user's preset file changes", async () => {
    const root = tempDir();
    for (const dir of ["project", "agent/agents", "home"])
      mkdirSync(join(root, dir), { recursive: true });
    const preset = join(root, "agent/agents/codex.yaml");
    writeFileSync(preset, "agentName: Codex one\n");
    let stdout = "";
    const controller = new AbortController();
    const done = run(
      ["watch", "--agent", "codex", "--agent-dir", join(root, "agent"), "--now", NOW],
      {
        stdout: (text) => {
          stdout += text;
        },
        stderr: () => {},
        cwd: join(root, "project"),
        env: {},
        home: join(root, "home"),
        machine: { platform: "linux", arch: "x64" },
        signal: controller.signal,
      },
    );
    await until(() => stdout.includes("(Ctrl-C to stop)\n"), "the first render");
    writeFileSync(preset, "agentName: Codex two\n");
    await until(() => stdout.includes("+You are Codex two."), "the preset edit");
    controller.abort();
    expect(await done).toBe(0);
  });
});
