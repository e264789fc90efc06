import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  belowCwdFormats,
  findRulesBelowCwd,
  MAX_BELOW_CWD_FILES,
} from "../../src/gather/rules/nested.js";
import { NO_DEADLINE, projectReach } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

// `explain` lists the rule files that come on touch from the folders below
// cwd. Its walk capped the entries it listed (100,000), not the files it
// found, and each found file is checked (lstat, real path): 600 folders whose
// `.claude/rules` and `.windsurf/rules` link to one folder of 199 rule files
// held `sysprompt explain` for 12 s and printed 5.6 MB. Here 30 folders: 11,940
// files found before, at most the cap now, and the walk says it was cut.

describe("hostile repository: rules folders below cwd all linked to one folder of rule files", () => {
  it("explain's walk stops at its cap of rule files found, and says so", async () => {
    const root = join(tempDir(), "repo");
    mkdirSync(join(root, ".git"), { recursive: true });
    writeFileSync(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
    mkdirSync(join(root, ".big"));
    for (let f = 0; f < 199; f++) writeFileSync(join(root, ".big", `r${f}.md`), "x\n");
    for (let d = 0; d < 30; d++) {
      for (const agent of [".claude", ".windsurf"]) {
        mkdirSync(join(root, `d${d}`, agent), { recursive: true });
        symlinkSync("../../.big", join(root, `d${d}`, agent, "rules"));
      }
    }
    const reach = await projectReach({
      signal: NO_DEADLINE,
      start: root,
      home: join(root, "..", "home"),
      trusted: true,
    });
    const found = await findRulesBelowCwd(root, belowCwdFormats(undefined), {
      reach,
      ignored: async () => false,
    });
    expect(found.files.length).toBeGreaterThan(0);
    expect(found.files.length).toBeLessThanOrEqual(MAX_BELOW_CWD_FILES + 2 * 199);
    expect(found.cut).toBe(true);
  }, 60_000);
});
