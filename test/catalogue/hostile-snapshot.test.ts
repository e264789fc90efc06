import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderScenario } from "../../src/author/snapshot/snapshot.js";
import { run } from "../../src/cli/main.js";
import { FIXTURES, tempDir } from "../api/_helpers.js";
import type { CliRun } from "../cli/_run.js";

// Hostile snapshot folders: what a repository can check in beside its
// scenarios (links, special files, scenario keys that point anywhere) and
// what `sysprompt snapshot [--update]` must do with each: an error at the
// path, nothing read or written outside the scenario's folder, no stack trace.

const BASIC = join(FIXTURES, "snapshot", "basic");

/** `sysprompt snapshot …` in `dir`, with sandboxes under `<cache>/sysprompt/snapshots`. */
async function snapshot(dir: string, args: string[], cache = tempDir()): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await run(["snapshot", ...args], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    cwd: dir,
    env: { XDG_CACHE_HOME: cache },
    home: join(dir, "no-home"),
    isTTY: false,
  });
  return { code, stdout, stderr };
}

/** A copy of the basic scenarios (a and b) in a fresh folder, with `home/` beside it as the user's. */
function scenarios(): { dir: string; user: string } {
  const root = tempDir();
  const dir = join(root, "snaps");
  cpSync(BASIC, dir, { recursive: true });
  const user = join(root, "user");
  mkdirSync(user);
  return { dir, user };
}

const summary = (text: string) => `sysprompt snapshot: ${text}\n`;

describe("hostile snapshot folders: goldens", () => {
  it("--update never writes through a golden that is a link (~/.bashrc stays), and says so", async () => {
    const { dir, user } = scenarios();
    const bashrc = join(user, ".bashrc");
    writeFileSync(bashrc, "export PATH=/usr/bin\n");
    writeFileSync(join(dir, "a.scenario.yaml"), 'systemPrompt: "touch /tmp/PWNED"\n');
    const golden = join(dir, "a.md");
    execFileSync("rm", [golden]);
    symlinkSync(bashrc, golden);
    expect(await snapshot(dir, [".", "--update"])).toEqual({
      code: 1,
      stdout: [
        "error   a  a.md: a symbolic link, not a regular file: it is not read; a golden file is a regular file (remove what is there, and --update writes it)",
        "pass    b",
        summary("2 scenarios: 1 passed, 0 updated, 1 error"),
      ].join("\n"),
      stderr: "",
    });
    expect(readFileSync(bashrc, "utf8")).toBe("export PATH=/usr/bin\n");
  });

  it("a golden linked to /dev/zero or /dev/stdin, a folder or a FIFO is an error at once, never read", async () => {
    const { dir } = scenarios();
    execFileSync("rm", [join(dir, "a.md"), join(dir, "b.md")]);
    symlinkSync("/dev/zero", join(dir, "a.md"));
    symlinkSync("/dev/stdin", join(dir, "b.md"));
    writeFileSync(join(dir, "c.scenario.yaml"), "noContextFiles: true\n");
    mkdirSync(join(dir, "c.md"));
    writeFileSync(join(dir, "d.scenario.yaml"), "noContextFiles: true\n");
    execFileSync("mkfifo", [join(dir, "d.md")]);
    const started = Date.now();
    const result = await snapshot(dir, ["."]);
    expect(Date.now() - started).toBeLessThan(20_000);
    const fix = "; a golden file is a regular file (remove what is there, and --update writes it)";
    expect(result).toEqual({
      code: 1,
      stdout: [
        `error   a  a.md: a symbolic link, not a regular file: it is not read${fix}`,
        `error   b  b.md: a symbolic link, not a regular file: it is not read${fix}`,
        `error   c  c.md: a folder, not a regular file: it is not read${fix}`,
        `error   d  d.md: a FIFO, not a regular file: it is not read${fix}`,
        summary("4 scenarios: 0 passed, 0 drifted, 0 missing, 4 errors"),
      ].join("\n"),
      stderr: "",
    });
  });

  it("a diagnostics golden that is a link is not removed through, nor written through", async () => {
    const { dir, user } = scenarios();
    const mine = join(user, "notes.txt");
    writeFileSync(mine, "mine\n");
    symlinkSync(mine, join(dir, "a.diagnostics.txt"));
    const result = await snapshot(dir, [".", "--update"]);
    expect([result.code, result.stdout.split("\n")[0]]).toEqual([
      1,
      "error   a  a.diagnostics.txt: a symbolic link, not a regular file: it is not read; a golden file is a regular file (remove what is there, and --update writes it)",
    ]);
    expect([readFileSync(mine, "utf8"), existsSync(join(dir, "a.diagnostics.txt"))]).toEqual([
      "mine\n",
      true,
    ]);
  });
});

describe("hostile snapshot folders: the scenario folder", () => {
  it("a FIFO, a socket or a link in the scenario folder is an error at its path for every scenario, no stack trace", async () => {
    const { dir } = scenarios();
    execFileSync("mkfifo", [join(dir, "project", "pipe")]);
    const server = createServer();
    await new Promise<void>((done) => server.listen(join(dir, "project", "sock"), done));
    symlinkSync("/etc", join(dir, "project", "etc"));
    try {
      const result = await snapshot(dir, ["."]);
      const errors = [
        `  project/etc: a symbolic link (to "/etc"): a scenario folder holds only regular files and folders, so a fixture cannot lead outside it; put a copy of the file there instead`,
        "  project/pipe: a FIFO: a scenario folder holds only regular files and folders",
        "  project/sock: a socket: a scenario folder holds only regular files and folders",
      ];
      expect(result).toEqual({
        code: 1,
        stdout: [
          "error   a",
          ...errors,
          "error   b",
          ...errors,
          summary("2 scenarios: 0 passed, 0 drifted, 0 missing, 2 errors"),
        ].join("\n"),
        stderr: "",
      });
    } finally {
      server.close();
    }
  });

  it("--update refuses a scenario folder linked out of the project: exit 2, nothing written where it leads", async () => {
    // snapshots -> /tmp/x/snapshots holding a.scenario.yaml: --update wrote /tmp/x/snapshots/a.md.
    const { dir: outside } = scenarios();
    rmSync(join(outside, "a.md"));
    const project = tempDir();
    symlinkSync(outside, join(project, "snapshots"));
    for (const args of [
      ["--update"],
      ["snapshots", "--update"],
      ["snapshots/a.scenario.yaml", "--update"],
    ]) {
      const result = await snapshot(project, args);
      expect([result.code, result.stdout]).toEqual([2, ""]);
      expect(result.stderr).toContain(
        `its scenario folder is really ${realpathSync(outside)}, outside ${project} (a link leads there)`,
      );
    }
    expect(existsSync(join(outside, "a.md"))).toBe(false);
    // Named where it really is, it is the user's to update.
    expect((await snapshot(project, [outside, "--update"])).code).toBe(0);
    expect(existsSync(join(outside, "a.md"))).toBe(true);
  });

  it("a scenario file that is a link is refused, not read", async () => {
    const { dir, user } = scenarios();
    writeFileSync(join(user, "x.yaml"), "cwd: project\n");
    symlinkSync(join(user, "x.yaml"), join(dir, "c.scenario.yaml"));
    const result = await snapshot(dir, ["."]);
    expect(result.stdout.split("\n")[2]).toBe(
      "error   c  c.scenario.yaml: cannot read it: a symbolic link, not a regular file: it is not read",
    );
  });

  it("a scenario file of 20 KiB of keys is refused unparsed (a 1 MiB one took yaml 3.8 s)", async () => {
    const { dir } = scenarios();
    let flood = "";
    for (let i = 0; flood.length < 20 * 1024; i++) flood += `k${i.toString(36)}: 1\n`;
    writeFileSync(join(dir, "c.scenario.yaml"), flood);
    const result = await snapshot(dir, ["."]);
    expect(result.stdout.split("\n")[2]).toBe(
      "error   c  c.scenario.yaml: cannot read it: over 16384 bytes: it is not read",
    );
  });

  it("the sandbox is made under the user's cache, not a shared /tmp, and is gone after; one a killed run left is removed", async () => {
    const { dir } = scenarios();
    const cache = tempDir();
    const parent = join(cache, "sysprompt", "snapshots");
    // A process id no process has (above the largest Linux allows).
    const abandoned = join(
      parent,
      `run-${hostname().replace(/[^A-Za-z0-9]/g, "_")}-99999999-abc123`,
    );
    mkdirSync(join(abandoned, "scenario"), { recursive: true });
    const other = join(parent, "run-otherhost-99999999-abc123");
    mkdirSync(other);
    expect((await snapshot(dir, ["."], cache)).code).toBe(0);
    expect(readdirSync(parent)).toEqual(["run-otherhost-99999999-abc123"]);
  });

  it("a cache folder that cannot hold the sandbox is exit 2 with what to do, no stack trace", async () => {
    const { dir } = scenarios();
    const cache = join(tempDir(), "a-file");
    writeFileSync(cache, "not a folder\n");
    const result = await snapshot(dir, ["."], cache);
    expect([result.code, result.stdout]).toEqual([2, ""]);
    expect(result.stderr).toMatch(
      new RegExp(
        `^sysprompt: cannot make a sandbox for the scenarios in ${cache}/sysprompt/snapshots: ${cache}: not a folder: nothing is made in it; set XDG_CACHE_HOME to a folder you can write\n$`,
      ),
    );
  });

  it("the context search stops at the sandbox: an AGENTS.md above it (in the cache folder) is not in the prompt", async () => {
    const { dir } = scenarios();
    const cache = tempDir();
    mkdirSync(join(cache, "sysprompt", "snapshots"), { recursive: true });
    writeFileSync(join(cache, "AGENTS.md"), "PLANTED ABOVE THE SANDBOX\n");
    writeFileSync(
      join(cache, "sysprompt", "snapshots", "AGENTS.md"),
      "PLANTED BESIDE THE SANDBOX\n",
    );
    mkdirSync(join(cache, "sysprompt", "snapshots", ".agents", "skills", "evil"), {
      recursive: true,
    });
    expect(await snapshot(dir, ["."], cache)).toEqual({
      code: 0,
      stdout: `pass    a\npass    b\n${summary("2 scenarios: 2 passed, 0 drifted, 0 missing, 0 errors")}`,
      stderr: "",
    });
  });
});

describe("hostile snapshot folders: scenario keys confined to the folder", () => {
  const cases: [string, string, string][] = [
    [
      "appendSystemPrompt of /proc/self/cwd/.git/config",
      'appendSystemPrompt: ["/proc/self/cwd/.git/config"]\n',
      'appendSystemPrompt: "/proc/self/cwd/.git/config" would be read as a file, and must be relative to the scenario\'s folder (an absolute or ~ path differs from machine to machine, and a scenario reads nothing outside its folder)',
    ],
    [
      "systemPrompt leading outside",
      "cwd: project\nsystemPrompt: ../../secret.md\n",
      'systemPrompt: "../../secret.md" would be read as a file, and leads outside the scenario\'s folder; keep fixtures beside the scenario (the folder is what gets copied)',
    ],
    [
      "roots of /any/dir",
      'roots: ["/any/dir"]\n',
      'roots: "/any/dir" must be relative to the scenario\'s folder (an absolute or ~ path differs from machine to machine, and a scenario reads nothing outside its folder)',
    ],
    [
      "skillPaths leading outside",
      "cwd: project\nskillPaths: [../../skills]\n",
      'skillPaths: "../../skills" leads outside the scenario\'s folder; keep fixtures beside the scenario (the folder is what gets copied)',
    ],
    [
      "projectDir leading outside",
      "projectDir: ../.pi\n",
      'projectDir: "../.pi" leads outside the scenario\'s folder; keep fixtures beside the scenario (the folder is what gets copied)',
    ],
    [
      "env SYSPROMPT_AGENT_DIR of the user's agent dir",
      "env: { SYSPROMPT_AGENT_DIR: ~/.pi/agent }\n",
      'env: SYSPROMPT_AGENT_DIR: "~/.pi/agent" must be relative to the scenario\'s folder (an absolute or ~ path differs from machine to machine, and a scenario reads nothing outside its folder)',
    ],
    [
      "env XDG_CACHE_HOME leading outside",
      "env: { XDG_CACHE_HOME: ../.. }\n",
      'env: XDG_CACHE_HOME: "../.." leads outside the scenario\'s folder; keep fixtures beside the scenario (the folder is what gets copied)',
    ],
    [
      "an env variable of any name holding an absolute path",
      "env: { SOME_SETTING: /etc/shadow }\n",
      'env: SOME_SETTING: "/etc/shadow" must be relative to the scenario\'s folder (an absolute or ~ path differs from machine to machine, and a scenario reads nothing outside its folder)',
    ],
  ];
  for (const [name, yaml, message] of cases) {
    it(`refused at its key: ${name}`, async () => {
      const { dir } = scenarios();
      const file = join(dir, "x.scenario.yaml");
      writeFileSync(file, yaml);
      const line = yaml.split("\n").findIndex((l) => l.startsWith(message.split(":")[0] ?? "")) + 1;
      expect((await renderScenario(file).catch((e: Error) => e.message)) as string).toBe(
        `${file}:${line}:1: ${message}`,
      );
    });
  }

  it("a relative SYSPROMPT_AGENT_DIR inside the folder is the agent dir in the copy, as agentDir is", async () => {
    const { dir } = scenarios();
    mkdirSync(join(dir, "agent"));
    writeFileSync(join(dir, "agent", "AGENTS.md"), "The user's own rules.\n");
    writeFileSync(
      join(dir, "x.scenario.yaml"),
      "cwd: project\nenv: { SYSPROMPT_AGENT_DIR: agent }\n",
    );
    writeFileSync(join(dir, "y.scenario.yaml"), "cwd: project\nagentDir: agent\n");
    const viaEnv = await renderScenario(join(dir, "x.scenario.yaml"));
    expect([viaEnv.includes("<scenario>/agent/AGENTS.md"), viaEnv]).toEqual([
      true,
      await renderScenario(join(dir, "y.scenario.yaml")),
    ]);
  });

  it("home: h with h -> ~ is refused (a link in the folder), so @~/.ssh/id_rsa cannot be reached", async () => {
    const { dir, user } = scenarios();
    mkdirSync(join(user, ".ssh"));
    writeFileSync(join(user, ".ssh", "id_rsa"), "PRIVATE KEY\n");
    symlinkSync(user, join(dir, "h"));
    writeFileSync(join(dir, "project", "AGENTS.md"), "@~/.ssh/id_rsa\n");
    writeFileSync(join(dir, "a.scenario.yaml"), "cwd: project\nhome: h\n");
    const result = await snapshot(dir, ["a.scenario.yaml"]);
    expect(result).toEqual({
      code: 1,
      stdout: `error   a  h: a symbolic link (to ${JSON.stringify(user)}): a scenario folder holds only regular files and folders, so a fixture cannot lead outside it; put a copy of the file there instead\n${summary("1 scenario: 0 passed, 0 drifted, 0 missing, 1 error")}`,
      stderr: "",
    });
    expect(result.stdout).not.toContain("PRIVATE KEY");
  });
});

describe("scenario files and goldens: the rough edges", () => {
  it("x.scenario.yml is a scenario too", async () => {
    const { dir } = scenarios();
    writeFileSync(join(dir, "c.scenario.yml"), "cwd: project\nnoContextFiles: true\n");
    expect(await snapshot(dir, ["."])).toEqual({
      code: 1,
      stdout: [
        "pass    a",
        "pass    b",
        "missing c",
        "  no golden c.md; --update writes it",
        summary("3 scenarios: 2 passed, 0 drifted, 1 missing, 0 errors"),
      ].join("\n"),
      stderr: "",
    });
  });

  it("every problem of a scenario is reported, each at its place", async () => {
    const { dir } = scenarios();
    writeFileSync(
      join(dir, "c.scenario.yaml"),
      "tool: [read]\ncwd: /abs\nmodle: x\nnow:\nqqqqqq: 1\n",
    );
    const keys =
      "cwd, agentDir, projectDir, projectTrusted, agentName, agent, model, tools, toolSnippets, toolGuidelines, promptGuidelines, systemPrompt, appendSystemPrompt, sections, environment, noContextFiles, docs, workspaceTree, mtime, roots, maxContextBytes, skillPaths, now, env, home, machine, maxPromptTokens";
    expect((await snapshot(dir, ["c.scenario.yaml"])).stdout).toBe(
      [
        "error   c",
        '  c.scenario.yaml:1:1: unknown key "tool"; did you mean "tools"?',
        '  c.scenario.yaml:3:1: unknown key "modle"; did you mean "model"?',
        `  c.scenario.yaml:5:1: unknown key "qqqqqq"; the keys are: ${keys}`,
        `  c.scenario.yaml:2:1: cwd: "/abs" must be relative to the scenario's folder (an absolute or ~ path differs from machine to machine, and a scenario reads nothing outside its folder)`,
        "  c.scenario.yaml:4:1: now: has no value; give one or leave the key out",
        summary("1 scenario: 0 passed, 0 drifted, 0 missing, 1 error"),
      ].join("\n"),
    );
  });

  it("a YAML error does not end with a dangling 'at line 3, column 1:'", async () => {
    const { dir } = scenarios();
    const file = join(dir, "x.scenario.yaml");
    writeFileSync(file, "cwd: project\ntools: [read\n");
    expect(await renderScenario(file).catch((e: Error) => e.message)).toBe(
      `${file}:3:1: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]`,
    );
  });

  it("a golden ends with exactly one newline; without it (or with two) it drifts", async () => {
    const { dir } = scenarios();
    const golden = readFileSync(join(dir, "a.md"), "utf8");
    expect([golden.endsWith(">\n"), golden.endsWith("\n\n")]).toEqual([true, false]);
    expect(await renderScenario(join(dir, "a.scenario.yaml"))).toBe(golden);
    writeFileSync(join(dir, "a.md"), golden.slice(0, -1));
    const bare = await snapshot(dir, ["a.scenario.yaml"]);
    expect([bare.code, bare.stdout.split("\n").slice(-5)]).toEqual([
      1,
      [
        "    -</date>",
        "    \\ No newline at end of file",
        "    +</date>",
        summary("1 scenario: 0 passed, 1 drifted, 0 missing, 0 errors").trimEnd(),
        "",
      ],
    ]);
    writeFileSync(join(dir, "a.md"), `${golden}\n`);
    expect((await snapshot(dir, ["a.scenario.yaml"])).code).toBe(1);
  });
});
