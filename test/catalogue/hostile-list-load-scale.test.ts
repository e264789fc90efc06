import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_DEADLINE_MS } from "../../src/gather/deadline.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "../cli/_run.js";
import { denseFile, denseParseMs } from "./_dense-yaml.js";

// list and expand read every skill, slash-command template and rule file of
// a trusted project with no deadline at all. A skills root holds up to 5,000
// skills, each with a frontmatter block of dense YAML (see _dense-yaml.ts):
// `sysprompt list` in such a project ran past 200 s (the review's attack14).
// They read within a render's default deadline, and past it leave the rest
// out, with a `load-deadline` warning.

describe("hostile repository: list and expand in thousands of dense skills", () => {
  it.each([["list"], ["expand", "/skill:s1 now"]])(
    "%s stops reading at the default deadline and says so",
    async (...argv) => {
      const root = tempDir();
      const project = join(root, "project");
      mkdirSync(join(project, ".git"), { recursive: true });
      const parseMs = denseParseMs();
      // Enough skills that reading them takes at least three deadlines.
      const count = Math.min(5000, Math.ceil((3 * DEFAULT_DEADLINE_MS) / Math.max(parseMs, 20)));
      for (let i = 0; i < count; i++) {
        const dir = join(project, ".pi", "skills", `s${i}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, "SKILL.md"), denseFile(`name: s${i}\ndescription: d${i}\n`, "Go."));
      }
      const started = performance.now();
      mkdirSync(join(root, "agent"));
      const [command = "list", ...rest] = argv;
      const { stderr } = await cli(
        root,
        [command, "--agent-dir", join(root, "agent"), ...rest],
        false,
      );
      const took = performance.now() - started;
      expect(stderr).toMatch(
        /^warning \[load-deadline\] stopped reading the skills at the 5000 ms deadline; the rest are left out$/m,
      );
      expect(took).toBeLessThan(DEFAULT_DEADLINE_MS + 5000);
    },
    240_000,
  );
});
