import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { finishRules, traceRules } from "../../src/gather/rules/index.js";

// Review rev107c F5: an on-demand rule's name lost its line breaks in the prompt's list (runs of
// white space made one space before it was escaped), so two files printed the same name:
// `.cursor/rules/$'r\n<x>'.mdc` and `.cursor/rules/'r <x>'.mdc` were both `r &lt;x>`, and a tab
// and U+2028 were a space too. A name is now written one line as a path is, each line break or
// separator as `\uXXXX`; a description still has its white space made one space.

describe("rev107c F5: on-demand rule names keep what tells them apart", () => {
  it("a name with a line break, a tab or U+2028 prints apart from one with a space", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hostile-rule-names-"));
    mkdirSync(join(dir, ".git"));
    mkdirSync(join(dir, ".cursor/rules"), { recursive: true });
    const rule = (globs: string) =>
      `---\nglobs: "${globs}"\ndescription: "two\\n  lines"\n---\nX\n`;
    writeFileSync(join(dir, ".cursor/rules", "r\n<x>.mdc"), rule("*.a"));
    writeFileSync(join(dir, ".cursor/rules", "r <x>.mdc"), rule("*.b"));
    writeFileSync(join(dir, ".cursor/rules", "r\t\u2028s.mdc"), rule("*.c"));
    const loaded = await traceRules({
      cwd: dir,
      home: join(dir, "home"),
      agentDir: join(dir, "agent"),
    });
    const out = finishRules(loaded, new Set(["rule"]), []);
    const names = out.onDemandRules.map((r) => r.name).sort();
    expect(names).toEqual(["r &lt;x>", "r\\u000a&lt;x>", "r\\u0009\\u2028s"].sort());
    for (const r of out.onDemandRules) expect(r.description).toBe("two lines");
  });
});
