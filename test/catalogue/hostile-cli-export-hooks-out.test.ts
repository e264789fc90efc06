import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { usageHint } from "../cli/_run.js";
import { cliAt } from "./_cli-at.js";

// rev66d F3: `export --hooks` prints the hook settings and writes nothing, but took `--out`
// and said nothing: exit 0, no file where the user asked for the settings (`watch --out`
// without `--export` is refused). A flag is acted on or refused: --hooks with --out is exit 2.

describe("catalogue: export --hooks with --out", () => {
  it("is a usage error (exit 2), nothing printed or written", async () => {
    const base = tempDir();
    const p = join(base, "p");
    mkdirSync(join(p, ".git"), { recursive: true });
    mkdirSync(join(base, "home"));
    writeFileSync(join(p, "AGENTS.md"), "# P\n");
    const out = join(p, "hooks.json");
    const run = await cliAt(
      ["export", "--agent", "claude-code", "--hooks", "--out", out],
      p,
      join(base, "home"),
    );
    expect({ code: run.code, out: run.out, err: run.err }).toEqual({
      code: 2,
      out: "",
      err: `sysprompt: --hooks writes no file (it prints the hook settings on stdout): leave out --out, or redirect stdout\n${usageHint("export")}`,
    });
    expect(existsSync(out)).toBe(false);
  });
});
