import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { createPromptSession } from "../../src/session/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Review rev54b F4 (low): an untrusted session working in a hidden folder (`.github/actions/deploy`)
// reads that folder's AGENTS.md (decided: you stand there), but a touched `src/f.ts` below it
// refused `src/AGENTS.md` as hidden: touch counted hidden names from the project's top. Now, on
// touch, a hidden name counts from the working folder down for a path below it (`.x/AGENTS.md`
// there is still hidden), and from the project's top for any other path.

function layout() {
  const root = tempDir();
  const repo = join(root, "project");
  const cwd = join(repo, ".github", "actions", "deploy");
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": "MY-RULES\n",
    "project/.github/actions/deploy/AGENTS.md": "CWD-AGENTS\n",
    "project/.github/actions/deploy/src/AGENTS.md": "BELOW-CWD-AGENTS\n",
    "project/.github/actions/deploy/src/f.ts": "",
    "project/.github/actions/deploy/.x/AGENTS.md": "PRIV-HIDDEN-BELOW\n",
    "project/.github/actions/deploy/.x/f.ts": "",
    "project/.github/actions/other/AGENTS.md": "PRIV-HIDDEN-BESIDE\n",
    "project/.github/actions/other/f.ts": "",
  });
  return { root, repo, cwd };
}

describe("hostile-touch-hidden-cwd: untrusted touch counts hidden names below the working folder", () => {
  it("gives src/AGENTS.md below a hidden working folder, not .x/AGENTS.md nor a hidden sibling's", async () => {
    const { root, repo, cwd } = layout();
    const o = {
      cwd,
      home: join(root, "home"),
      agentDir: join(root, "agent"),
      projectTrusted: false,
    };
    // The render reads the working folder's own file inside the hidden folder (trust.md).
    expect((await renderSystemPrompt(o)).text).toContain("CWD-AGENTS");
    const session = createPromptSession(o);
    try {
      const r = await session.contextFor([
        join(cwd, "src", "f.ts"),
        join(cwd, ".x", "f.ts"),
        join(repo, ".github", "actions", "other", "f.ts"),
      ]);
      const given = r.files.map((f) => f.content).join("\n");
      expect(given).toContain("BELOW-CWD-AGENTS");
      expect(given).not.toContain("PRIV-");
      const ignored = r.diagnostics.filter((d) => d.code === "context-ignored");
      expect(ignored.map((d) => d.path).sort()).toEqual(
        [
          join(cwd, ".x", "AGENTS.md"),
          join(repo, ".github", "actions", "other", "AGENTS.md"),
        ].sort(),
      );
      expect(ignored.map((d) => d.message)).toEqual([
        expect.stringContaining("hidden"),
        expect.stringContaining("hidden"),
      ]);
    } finally {
      session.close();
    }
  });
});
