import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { traceRules } from "../../src/gather/rules/index.js";
import { tempDir } from "../api/_helpers.js";

// A repository's folder of rule files no agent of this prompt uses (Roo's
// `.roo/rules-{mode}`: read only in that mode) gave one rule-disabled info a
// file: 150 files, 150 lines, and with every mode folder and `.roorules-*`
// up to the per-folder caps, hundreds that buried the other diagnostics.
// One info a folder names the count and the first few; explain's accounts
// still list each file.

const COUNT = 150;
const REASON = 'Roo adds it only in its "review" mode, and this prompt is in no Roo mode';

describe("hostile repository: a folder of many rule files left unused", () => {
  it("is one rule-disabled info naming the count and the first files; the accounts keep each", async () => {
    const root = join(tempDir(), "repo");
    const dir = join(root, ".roo", "rules-review");
    mkdirSync(join(root, ".git"), { recursive: true });
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < COUNT; i++) {
      writeFileSync(join(dir, `r${String(i).padStart(3, "0")}.md`), `Rule ${i}.\n`);
    }
    writeFileSync(join(root, ".roorules-docs"), "Docs mode only.\n");
    const traced = await traceRules({ cwd: root, home: join(root, "..", "home") });
    const infos = traced.diagnostics.filter((d) => d.code === "rule-disabled");
    expect(infos).toEqual([
      {
        level: "info",
        code: "rule-disabled",
        message: `${COUNT} rule files not loaded: ${REASON}: r000.md, r001.md, r002.md and ${COUNT - 3} more; \`sysprompt explain\` lists each`,
        path: dir,
      },
      // A lone file in its folder says what it said before.
      {
        level: "info",
        code: "rule-disabled",
        message:
          'rule not loaded: Roo adds it only in its "docs" mode, and this prompt is in no Roo mode',
        path: join(root, ".roorules-docs"),
      },
    ]);
    const disabled = traced.accounts.filter((a) => a.fate.status === "disabled");
    expect(disabled).toHaveLength(COUNT + 1);
  });
});
