import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPromptSession } from "../../src/session/index.js";
import { layout, SECRETS, TOUCHED } from "./_other-projects.js";

// hostile-touch-other-project's layout with `evil` unpacked from a zip or a
// tarball, or a crate in ~/.cargo: no `.git`. A folder with no repository
// between it and the session root was judged against that root, so in a
// session in `~/work` or `~` (not a repository's own root) evil's nested
// files still reached client's `.env`, the token in its `.git/config` and
// `~/Documents` (review rev37a F1, high). Below a session root that is no
// repository's, such a folder is now its own project, as a render started
// in it finds it.

describe("hostile repository: context on touch from a folder without .git, in a session above several projects", () => {
  for (const trusted of [true, false]) {
    for (const at of ["~/work", "~"]) {
      it(`session in ${at}, ${trusted ? "trusted" : "untrusted"}: nothing of client's or yours`, async () => {
        const { home, work } = await layout();
        rmSync(join(work, "evil", ".git"), { recursive: true });
        const session = createPromptSession({
          cwd: at === "~" ? home : work,
          home,
          agentDir: join(home, ".pi", "agent"),
          projectTrusted: trusted,
        });
        try {
          const r = await session.contextFor(TOUCHED.map((p) => join(home, "work", p)));
          const given = r.files.map((f) => f.content).join("\n");
          expect(given.match(SECRETS) ?? []).toEqual([]);
          // Evil's own nested file still comes.
          expect(given).toContain("Evil's nested text.");
        } finally {
          session.close();
        }
      });
    }
  }
});
