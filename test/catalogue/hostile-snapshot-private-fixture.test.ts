import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSnapshots } from "../../src/author/snapshot/snapshot.js";
import { tempDir } from "../api/_helpers.js";

// A scenario renders "as an untrusted project" from a copy of its folder, and
// the copy held no `.git/info/exclude`: a file of the scenario folder that
// your exclude file names was imported by the fixture's AGENTS.md, and
// `snapshot --update` wrote its bytes into the golden, a file meant to be
// committed (a plain untrusted render refuses it: import-private). Such a
// file now refuses the copy, as a link there does (review rev47d F5).

const SECRET = "MY-EXCLUDED-FIXTURE-SECRET";

function repository(excluded: string) {
  const root = tempDir();
  const repo = join(root, "p");
  mkdirSync(join(repo, ".git", "info"), { recursive: true });
  writeFileSync(join(repo, ".git", "info", "exclude"), `${excluded}\n`);
  const snapshots = join(repo, "snapshots");
  mkdirSync(join(snapshots, "fixture"), { recursive: true });
  writeFileSync(join(snapshots, "fixture", "AGENTS.md"), "# fixture\n@secret.txt\n");
  writeFileSync(join(snapshots, "fixture", "secret.txt"), `${SECRET}\n`);
  writeFileSync(join(snapshots, "a.scenario.yaml"), "cwd: fixture\n");
  return { root, snapshots };
}

describe("hostile repository: snapshot and a fixture file your exclude file names", () => {
  it("refuses the scenario instead of writing the file into the golden", async () => {
    const { root, snapshots } = repository("secret.txt");
    const report = await runSnapshots(snapshots, {
      update: true,
      sandboxDir: join(root, "sandboxes"),
    });
    const golden = join(snapshots, "a.md");
    expect(existsSync(golden) ? readFileSync(golden, "utf8") : "").not.toContain(SECRET);
    expect(JSON.stringify(report)).toContain(
      "private in the repository (snapshots/fixture/secret.txt is ignored by git)",
    );
  });

  it("a file no list of yours names is still copied (its text is in the golden)", async () => {
    const { root, snapshots } = repository("other.txt");
    await runSnapshots(snapshots, { update: true, sandboxDir: join(root, "sandboxes") });
    expect(readFileSync(join(snapshots, "a.md"), "utf8")).toContain(SECRET);
  });
});
