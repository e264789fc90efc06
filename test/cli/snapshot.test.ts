import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderScenario } from "../../src/author/snapshot/snapshot.js";
import { run } from "../../src/cli/main.js";
import { SyspromptError } from "../../src/types.js";
import { FIXTURES, tempDir } from "../api/_helpers.js";
import { LOADED_NOTE } from "../gather/_context-section.js";
import { type CliRun, usageHint } from "./_run.js";

/** `test/fixtures/snapshot/basic`: scenarios a and b, with their goldens. */
const BASIC = join(FIXTURES, "snapshot", "basic");

/** `sysprompt snapshot …` run in `cwd`, colours off unless `tty`. */
async function snapshot(
  cwd: string,
  args: string[],
  more: { isTTY?: boolean; env?: Record<string, string> } = {},
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await run(["snapshot", ...args], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    cwd,
    // Sandboxes go to a temp cache, not beside the fixtures (home is cwd/no-home).
    env: { XDG_CACHE_HOME: CACHE, ...more.env },
    home: join(cwd, "no-home"),
    isTTY: more.isTTY ?? false,
  });
  return { code, stdout, stderr };
}

/** A temp copy of the basic scenarios, at `<tmp>/<sub…>/snaps`. */
function copyBasic(...sub: string[]): string {
  const dir = join(tempDir(), ...sub, "snaps");
  cpSync(BASIC, dir, { recursive: true });
  return dir;
}

/** Where the sandboxes of this file's runs are made. */
const CACHE = tempDir();

const summary = (text: string) => `sysprompt snapshot: ${text}\n`;

describe("sysprompt snapshot", () => {
  it("passes (exit 0) when every golden matches, and writes nothing", async () => {
    const before = readFileSync(join(BASIC, "a.md"), "utf8");
    expect(await snapshot(BASIC, ["."])).toEqual({
      code: 0,
      stdout: `pass    a\npass    b\n${summary("2 scenarios: 2 passed, 0 drifted, 0 missing, 0 errors")}`,
      stderr: "",
    });
    expect(readFileSync(join(BASIC, "a.md"), "utf8")).toBe(before);
  });

  it("looks in snapshots/ by default", async () => {
    const root = tempDir();
    cpSync(BASIC, join(root, "snapshots"), { recursive: true });
    expect(await snapshot(root, [])).toEqual({
      code: 0,
      stdout: `pass    a\npass    b\n${summary("2 scenarios: 2 passed, 0 drifted, 0 missing, 0 errors")}`,
      stderr: "",
    });
  });

  it("drift: exit 1 with a unified diff of the golden against the render; nothing is written", async () => {
    const dir = copyBasic();
    writeFileSync(
      join(dir, "project", "AGENTS.md"),
      "# Demo\n\nRun `make test` before you finish.\n",
    );
    const golden = readFileSync(join(dir, "a.md"), "utf8");
    expect(await snapshot(dir, ["."])).toEqual({
      code: 1,
      stdout: [
        "drift   a",
        "  a.md differs from the render:",
        "    --- a.md\tgolden",
        "    +++ a.md\trendered",
        "    @@ -31,9 +31,9 @@",
        "     ",
        '     <repository_instructions path="<scenario>/project/AGENTS.md">',
        "     # Demo",
        "     ",
        "    -Run `make check` before you finish.",
        "    +Run `make test` before you finish.",
        "     ",
        "     </repository_instructions>",
        "     ",
        `     ${LOADED_NOTE}`,
        "pass    b",
        summary("2 scenarios: 1 passed, 1 drifted, 0 missing, 0 errors"),
      ].join("\n"),
      stderr: "",
    });
    expect(readFileSync(join(dir, "a.md"), "utf8")).toBe(golden);
  });

  it("a missing golden is exit 1 and names the file", async () => {
    const dir = copyBasic();
    rmSync(join(dir, "b.md"));
    expect(await snapshot(dir, ["."])).toEqual({
      code: 1,
      stdout: [
        "pass    a",
        "missing b",
        "  no golden b.md; --update writes it",
        summary("2 scenarios: 1 passed, 0 drifted, 1 missing, 0 errors"),
      ].join("\n"),
      stderr: "",
    });
    expect(existsSync(join(dir, "b.md"))).toBe(false);
  });

  it("--update writes only the goldens that changed, says which, and then they pass", async () => {
    const dir = copyBasic();
    writeFileSync(
      join(dir, "project", "AGENTS.md"),
      "# Demo\n\nRun `make test` before you finish.\n",
    );
    rmSync(join(dir, "b.md"));
    writeFileSync(join(dir, "c.scenario.yaml"), "cwd: project\nnoContextFiles: true\n");
    const c = await renderScenario(join(dir, "c.scenario.yaml"));
    writeFileSync(join(dir, "c.md"), c);
    // An old mtime: a write of the same bytes would still show.
    utimesSync(join(dir, "c.md"), 1_000_000, 1_000_000);
    expect(await snapshot(dir, [".", "--update"])).toEqual({
      code: 0,
      stdout: [
        "updated a",
        "  wrote a.md",
        "updated b",
        "  wrote b.md",
        "pass    c",
        summary("3 scenarios: 1 passed, 2 updated, 0 errors"),
      ].join("\n"),
      stderr: "",
    });
    expect(statSync(join(dir, "c.md")).mtimeMs).toBe(1_000_000_000);
    expect(readFileSync(join(dir, "a.md"), "utf8")).toBe(
      readFileSync(join(BASIC, "a.md"), "utf8").replace("make check", "make test"),
    );
    expect(readFileSync(join(dir, "b.md"), "utf8")).toBe(readFileSync(join(BASIC, "b.md"), "utf8"));
    expect((await snapshot(dir, ["."])).code).toBe(0);
  });

  it("an unknown key is exit 1 naming it, its place and the key it is likely a typo of; other scenarios still run", async () => {
    const dir = copyBasic();
    writeFileSync(join(dir, "bad.scenario.yaml"), "cwd: project\ntool: [read]\n");
    expect(await snapshot(dir, ["."])).toEqual({
      code: 1,
      stdout: [
        "pass    a",
        "pass    b",
        'error   bad  bad.scenario.yaml:2:1: unknown key "tool"; did you mean "tools"?',
        summary("3 scenarios: 2 passed, 0 drifted, 0 missing, 1 error"),
      ].join("\n"),
      stderr: "",
    });
  });

  it("a value the render refuses is reported at its key, with placeholders for paths", async () => {
    const dir = copyBasic();
    const cases: [string, string][] = [
      [
        "tools: read,bash\n",
        'tools: must be an array of strings (split a list first: ["read","bash"]), got "read,bash"',
      ],
      [
        "cwd: ../elsewhere\n",
        'cwd: "../elsewhere" leads outside the scenario\'s folder; keep fixtures beside the scenario (the folder is what gets copied)',
      ],
      [
        "cwd: /abs\n",
        'cwd: "/abs" must be relative to the scenario\'s folder (an absolute or ~ path differs from machine to machine, and a scenario reads nothing outside its folder)',
      ],
      [
        "model: m\ncwd: nowhere\n",
        "cwd: there is no folder at <scenario>/nowhere; pass the project's folder",
      ],
      [
        "mtime: yesterday\n",
        'mtime: "yesterday" is not an ISO 8601 date or time; pass one such as 2026-01-31 or 2026-01-31T12:00:00Z (a time without an offset is UTC)',
      ],
      [
        "machine: { platform: linux, arch: x64, runProbe: lspci }\n",
        'machine: "runProbe" is not a machine fact a scenario can give; give strings for platform, arch, release, hostname, timeZone',
      ],
      ["now:\n", "now: has no value; give one or leave the key out"],
    ];
    for (const [yaml, message] of cases) {
      const file = join(dir, "x.scenario.yaml");
      writeFileSync(file, yaml);
      const line = yaml.split("\n").findIndex((l) => l.startsWith(message.split(":")[0] ?? "")) + 1;
      const error = await renderScenario(file).catch((e) => e);
      expect([error instanceof SyspromptError, error.code, error.message]).toEqual([
        true,
        "bad-scenario",
        `${file}:${line}:1: ${message}`,
      ]);
    }
  });

  it("bad YAML and a scenario that is not a mapping are located", async () => {
    const dir = copyBasic();
    const file = join(dir, "x.scenario.yaml");
    writeFileSync(file, "cwd: project\ntools: [read\n");
    expect((await renderScenario(file).catch((e) => e)).message).toMatch(
      new RegExp(`^${file}:3:1: not valid YAML: `),
    );
    writeFileSync(file, "- cwd\n");
    expect((await renderScenario(file).catch((e) => e)).message).toBe(
      `${file}:1:1: must be a mapping of render options, such as \`tools: [read, bash]\``,
    );
  });

  it("placeholders make the render independent of where the scenarios are checked out", async () => {
    const one = copyBasic();
    const two = copyBasic("deeper", "checkout");
    for (const name of ["a", "b"]) {
      const golden = readFileSync(join(BASIC, `${name}.md`), "utf8");
      expect(await renderScenario(join(one, `${name}.scenario.yaml`))).toBe(golden);
      expect(await renderScenario(join(two, `${name}.scenario.yaml`))).toBe(golden);
    }
    // The paths b's skill and cwd are at, spelled with placeholders.
    expect(readFileSync(join(BASIC, "b.md"), "utf8")).toContain(
      "<location><home>/.agents/skills/notes/SKILL.md</location>",
    );
  });

  it("the default home is an empty folder written <home>, also in diagnostics", async () => {
    const dir = join(tempDir(), "s");
    mkdirSync(join(dir, "agent"), { recursive: true });
    mkdirSync(join(dir, "project"));
    writeFileSync(join(dir, "agent", "AGENTS.md"), "Agent rules.\n\n@/etc/hostname\n");
    writeFileSync(join(dir, "x.scenario.yaml"), "cwd: project\nagentDir: agent\n");
    expect((await snapshot(dir, [".", "--update"])).code).toBe(0);
    expect(readFileSync(join(dir, "x.diagnostics.txt"), "utf8")).toBe(
      "warning <scenario>/agent/AGENTS.md:3:1 [import-outside] @/etc/hostname leads to <outside>/hostname, outside the home folder <home> or the agent dir <scenario>/agent; left as written\n",
    );
  });

  it("pins diagnostics in <name>.diagnostics.txt: new ones drift, --update writes, stale ones are removed", async () => {
    const dir = copyBasic();
    writeFileSync(join(dir, "a.scenario.yaml"), "cwd: project\ntools: [read, frobnicate]\n");
    writeFileSync(join(dir, "a.md"), await renderScenario(join(dir, "a.scenario.yaml")));
    const first = await snapshot(dir, ["."]);
    expect([first.code, first.stdout.split("\n").slice(0, 5)]).toEqual([
      1,
      [
        "drift   a",
        "  new diagnostics, not in a.diagnostics.txt; --update writes it",
        "    --- a.diagnostics.txt\tgolden",
        "    +++ a.diagnostics.txt\trendered",
        "    @@ -0,0 +1,1 @@",
      ],
    ]);
    expect((await snapshot(dir, [".", "--update"])).stdout).toBe(
      `updated a\n  wrote a.diagnostics.txt\npass    b\n${summary("2 scenarios: 1 passed, 1 updated, 0 errors")}`,
    );
    expect(readFileSync(join(dir, "a.diagnostics.txt"), "utf8")).toBe(
      'info [tool-unknown] tool "frobnicate" has no description (none in tools.md or toolSnippets), so the tools section cannot say what it does; check the spelling, or describe it (--tool frobnicate=text, toolSnippets)\n',
    );
    expect((await snapshot(dir, ["."])).code).toBe(0);

    writeFileSync(join(dir, "a.scenario.yaml"), "cwd: project\ntools: [read]\n");
    writeFileSync(join(dir, "a.md"), await renderScenario(join(dir, "a.scenario.yaml")));
    const stale = await snapshot(dir, ["."]);
    expect([stale.code, stale.stdout.split("\n")[1]]).toEqual([
      1,
      "  a.diagnostics.txt lists diagnostics the render no longer has; --update removes it",
    ]);
    expect((await snapshot(dir, [".", "--update"])).stdout.split("\n").slice(0, 2)).toEqual([
      "updated a",
      "  removed a.diagnostics.txt",
    ]);
    expect(existsSync(join(dir, "a.diagnostics.txt"))).toBe(false);
  });

  it("--json prints the whole report", async () => {
    const dir = copyBasic();
    rmSync(join(dir, "b.md"));
    const result = await snapshot(dir, [".", "--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      dir,
      update: false,
      ok: false,
      counts: { pass: 1, drift: 0, missing: 1, updated: 0, error: 0 },
      scenarios: [
        {
          scenario: join(dir, "a.scenario.yaml"),
          name: "a",
          status: "pass",
          files: [{ path: join(dir, "a.md"), kind: "prompt", status: "same", updated: false }],
        },
        {
          scenario: join(dir, "b.scenario.yaml"),
          name: "b",
          status: "missing",
          files: [{ path: join(dir, "b.md"), kind: "prompt", status: "missing", updated: false }],
        },
      ],
    });
  });

  it("one scenario file can be named instead of a folder", async () => {
    expect(await snapshot(BASIC, ["b.scenario.yaml"])).toEqual({
      code: 0,
      stdout: `pass    b\n${summary("1 scenario: 1 passed, 0 drifted, 0 missing, 0 errors")}`,
      stderr: "",
    });
  });

  it("a folder without scenarios is exit 1; a folder that is not there, or a FIFO, is usage (exit 2)", async () => {
    const empty = tempDir();
    mkdirSync(join(empty, "snapshots"));
    expect(await snapshot(empty, [])).toEqual({
      code: 1,
      stdout: `no *.scenario.yaml files in snapshots\n${summary("0 scenarios: 0 passed, 0 drifted, 0 missing, 0 errors")}`,
      stderr: "",
    });
    expect(await snapshot(empty, ["nope"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: there is no folder or file at ${join(empty, "nope")}; pass the folder that holds the *.scenario.yaml files (default: snapshots/), or one of them\n${usageHint("snapshot", "[options] [dir]")}`,
    });
    execFileSync("mkfifo", [join(empty, "pipe")]);
    expect(await snapshot(empty, ["pipe"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: ${join(empty, "pipe")} is not a folder or a file; pass the folder that holds the *.scenario.yaml files (default: snapshots/), or one of them\n${usageHint("snapshot", "[options] [dir]")}`,
    });
    expect((await snapshot(empty, ["--frobnicate"])).code).toBe(2);
  });

  it("colours the diff on a terminal only, and never with NO_COLOR", async () => {
    const dir = copyBasic();
    writeFileSync(join(dir, "project", "AGENTS.md"), "changed\n");
    const ESC = "\u001b[";
    expect((await snapshot(dir, ["."], { isTTY: true })).stdout).toContain(`    ${ESC}32m+changed`);
    expect(
      (await snapshot(dir, ["."], { isTTY: true, env: { NO_COLOR: "1" } })).stdout,
    ).not.toContain(ESC);
    expect((await snapshot(dir, ["."])).stdout).not.toContain(ESC);
  });

  it("--help shows an example", async () => {
    const help = await snapshot(BASIC, ["--help"]);
    expect([help.code, help.stdout.includes("Example:\n  $ sysprompt snapshot")]).toEqual([
      0,
      true,
    ]);
  });
});
