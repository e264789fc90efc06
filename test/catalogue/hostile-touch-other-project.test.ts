import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TouchedContext } from "../../src/gather/context/on-touch.js";
import { createPromptSession } from "../../src/session/index.js";
import { layout, SECRETS, TOUCHED } from "./_other-projects.js";

// An agent session run in a folder above several repositories (`~/work`, `~`,
// a devcontainer's `/workspace`). Context on touch checked every nested file
// and its imports against the session's root, where a render checks each file
// against its own project (its nearest `.git`): a cloned `~/work/evil` whose
// `src/AGENTS.md` links to `~/work/client/.env`, or whose `GEMINI.md` writes
// `@../../client/config/notes.txt`, put the other project's file in the tool
// result the first time the model read a file of `evil/src`. Each nested file
// is now its own project's, with that project's private-path rules when the
// session is not trusted.

/** What a session's contextFor gives for the touched files of `evil`. */
async function touched(cwd: string, home: string, trusted: boolean): Promise<TouchedContext> {
  const session = createPromptSession({
    cwd,
    home,
    agentDir: join(home, ".pi", "agent"),
    projectTrusted: trusted,
  });
  try {
    return await session.contextFor(TOUCHED.map((p) => join(home, "work", p)));
  } finally {
    session.close();
  }
}

const codes = (r: TouchedContext) =>
  r.diagnostics.map((d) => `${d.code} ${d.path?.replace(/^.*\/work\//, "")}`).sort();

describe("hostile repository: context on touch in a session above several repositories", () => {
  for (const trusted of [true, false]) {
    for (const at of ["~/work", "~"]) {
      it(`session in ${at}, ${trusted ? "trusted" : "untrusted"}: evil's nested files stay in evil`, async () => {
        const { home, work } = await layout();
        const r = await touched(at === "~" ? home : work, home, trusted);
        const text = JSON.stringify(r.files);
        expect(text.match(SECRETS) ?? []).toEqual([]);
        // Its files that import out come with the import left as written; its own import inside evil still comes.
        expect(r.files.map((f) => f.path)).toEqual([
          ...["imp", "doc", "own"].map((d) => `${work}/evil/${d}/GEMINI.md`),
          // A trusted project's link to its own file is read, as a render reads it.
          ...(trusted ? [`${work}/evil/ex/AGENTS.md`] : []),
        ]);
        expect(r.files[2]?.content).toContain("Evil's own guide.");
        expect(text.includes("EVIL-EXCLUDED")).toBe(trusted);
        const refused = codes(r).filter((c) => /outside|private|refused/.test(c));
        expect(refused).toEqual(
          [
            "context-outside-project evil/cfg/AGENTS.md",
            "context-outside-project evil/env/AGENTS.md",
            "context-outside-project evil/src/AGENTS.md",
            "import-outside evil/doc/GEMINI.md",
            "import-outside evil/imp/GEMINI.md",
            "rule-refused evil/l/CLAUDE.local.md",
            "rule-refused evil/w/.windsurf/rules/r.md",
            // evil's own .git/info/exclude, which the session's root never read.
            ...(trusted ? [] : ["context-private evil/ex/AGENTS.md"]),
          ].sort(),
        );
        const outside = r.diagnostics.find((d) => d.code === "context-outside-project");
        expect(outside?.message).toContain(`outside the project root ${work}/evil`);
      });
    }
  }
});
