import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderScenarioFiles } from "../../src/author/snapshot/snapshot.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Review rev50d F10 (low): a scenario whose agent dir's AGENTS.md imports
// `@../../../x1` and `@../../../../x0` wrote the real paths of the copy's folders
// (your cache folder, your user name on a real machine) into the diagnostics
// golden, a file meant to be committed, and one that drifts between machines.
// The sandbox, its parent and your own home are placeholders now.

describe("hostile repository: a golden names nothing outside the scenario by its real path", () => {
  it("imports that climb out of the copy are written <sandbox>, <sandboxes> and ~", async () => {
    const root = tempDir();
    writeFiles(root, {
      "snaps/a.scenario.yaml": "agentDir: agent\n",
      "snaps/agent/AGENTS.md": `mine\n@../../../x1\n@../../../../x0\n@${homedir()}/x2\n`,
    });
    const sandboxes = join(root, "sandboxes");
    const got = await renderScenarioFiles(join(root, "snaps/a.scenario.yaml"), {
      sandboxDir: sandboxes,
    });
    const outside = (spec: string, to: string) =>
      `warning <scenario>/agent/AGENTS.md [import-outside] ${spec} leads to ${to}, outside the home folder <home> or the agent dir <scenario>/agent; left as written`;
    const lines = got.diagnostics
      .split("\n")
      .filter((l) => l.includes("import-outside"))
      .map((l) => l.replace(/:\d+:\d+ \[/, " ["));
    expect(lines).toEqual([
      outside("@../../../x1", "<sandbox>/x1"),
      outside("@../../../../x0", "<sandboxes>/x0"),
      // Your home is written ~ wherever it appears, the import as written too.
      outside("@~/x2", "~/x2"),
    ]);
    expect(got.diagnostics).not.toContain(root);
  });
});
