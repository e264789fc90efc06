import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSnapshots } from "../../src/author/index.js";
import { run } from "../../src/cli/main.js";
// Loaded here, not on the first run's time: the command's module is imported lazily.
import "../../src/cli/commands/snapshot.js";
import { tempDir } from "../api/_helpers.js";
import type { CliRun } from "../cli/_run.js";

// `snapshot FILE --update` took any regular file as one scenario, named by the
// file's name without its extension, and wrote its "golden" `<name>.md` beside
// it with no check that the `.md` was a golden (review rev97b F1): `snapshot
// docs/notes.yaml --update` replaced your `docs/notes.md`, `snapshot plan.md
// --update` overwrote `plan.md` with its own render, and a repository shipping
// `snapshots` as a regular file holding a YAML mapping made the plain
// `sysprompt snapshot --update` replace `snapshots.md` at the project's top and
// remove `snapshots.diagnostics.txt`: exit 0, "wrote", no copy kept. A file
// named to snapshot must have a scenario file's name, and the default
// `snapshots/` must be a folder: anything else is a usage error (exit 2).

async function snapshot(dir: string, args: string[]): Promise<CliRun> {
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
    env: { XDG_CACHE_HOME: join(dir, "..", "cache") },
    home: join(dir, "..", "home"),
    isTTY: false,
  });
  return { code, stdout, stderr };
}

function project(): string {
  const dir = join(tempDir(), "p");
  mkdirSync(dir);
  return dir;
}

const MINE = "MY OWN NOTES - three weeks of design decisions\n";

describe("hostile repository: snapshot given a file that is not a scenario file", () => {
  it("refuses docs/notes.yaml (exit 2) and leaves your docs/notes.md", async () => {
    const dir = project();
    mkdirSync(join(dir, "docs"));
    writeFileSync(join(dir, "docs", "notes.yaml"), "tools: [read]\n");
    writeFileSync(join(dir, "docs", "notes.md"), MINE);
    const out = await snapshot(dir, ["docs/notes.yaml", "--update"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(".scenario.yaml");
    expect(out.stdout).not.toContain("wrote");
    expect(readFileSync(join(dir, "docs", "notes.md"), "utf8")).toBe(MINE);
  });

  it("refuses plan.md (exit 2) rather than write its render over it", async () => {
    const dir = project();
    writeFileSync(join(dir, "plan.md"), "tools: [read]\n");
    const out = await snapshot(dir, ["plan.md", "--update"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("plan.md");
    expect(readFileSync(join(dir, "plan.md"), "utf8")).toBe("tools: [read]\n");
  });

  it("refuses a regular file `snapshots` where the default folder is (exit 2)", async () => {
    const dir = project();
    writeFileSync(join(dir, "snapshots"), "tools: [read]\n");
    writeFileSync(join(dir, "snapshots.md"), "PROJECT README I WROTE\n");
    writeFileSync(join(dir, "snapshots.diagnostics.txt"), "keep\n");
    const out = await snapshot(dir, ["--update"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/snapshots.*not a folder/);
    expect(readFileSync(join(dir, "snapshots.md"), "utf8")).toBe("PROJECT README I WROTE\n");
    expect(readdirSync(dir).sort()).toEqual([
      "snapshots",
      "snapshots.diagnostics.txt",
      "snapshots.md",
    ]);
  });

  it("refuses the file through the API too (a bad argument, nothing written)", async () => {
    const dir = project();
    writeFileSync(join(dir, "notes.yml"), "tools: [read]\n");
    writeFileSync(join(dir, "notes.md"), MINE);
    await expect(
      runSnapshots(join(dir, "notes.yml"), { update: true, within: dir }),
    ).rejects.toMatchObject({ code: "bad-argument" });
    expect(readFileSync(join(dir, "notes.md"), "utf8")).toBe(MINE);
  });
});
