import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliAt, cliProject } from "./_cli-at.js";

// rev66d F1: a file name of 234-255 bytes is one the system takes, and passed the NAME_MAX
// check, but the write's temporary file beside it (`.NAME.PID.HEX.tmp`, ~22 bytes longer) is
// not: `render -o`, `export --out` and `snapshot --update`'s golden failed (exit 1,
// ENAMETOOLONG naming a file the user never named). The temporary name now fits: a digest of
// the name stands for it when it would not.

describe("catalogue: an output name of 234-255 bytes is written", () => {
  it("render -o and export --out of a 250-byte name: written, no temporary file left", async () => {
    const { p, home } = cliProject();
    const name = `${"a".repeat(247)}.md`;
    const rendered = await cliAt(["render", "-o", name], p, home);
    expect({ code: rendered.code, err: rendered.err }).toEqual({
      code: 0,
      err: `sysprompt: wrote ${name}\n`,
    });
    expect(readFileSync(join(p, name), "utf8")).toContain("# P");
    const other = `${"b".repeat(252)}.md`;
    const exported = await cliAt(["export", "--agent", "codex", "--out", other], p, home);
    expect(exported.code).toBe(0);
    expect(readdirSync(p).sort()).toEqual([".git", "AGENTS.md", name, other].sort());
  });

  it("snapshot --update of a scenario named with 235 bytes writes its golden", async () => {
    const { p, home } = cliProject();
    // `STEM.scenario.yaml` is 249 bytes, its golden `STEM.md` 238.
    const stem = "s".repeat(235);
    mkdirSync(join(p, "snapshots"));
    writeFileSync(join(p, "snapshots", `${stem}.scenario.yaml`), "now: 2026-01-01T00:00:00Z\n");
    const { code } = await cliAt(["snapshot", "--update"], p, home);
    expect(code).toBe(0);
    expect(readdirSync(join(p, "snapshots")).sort()).toEqual(
      [`${stem}.md`, `${stem}.scenario.yaml`].sort(),
    );
  });
});
