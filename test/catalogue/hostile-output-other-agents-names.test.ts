import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cloneBesideProject, fromEvil } from "./_output-link.js";

// Review rev101d F4 (low): from an untrusted clone, `render --untrusted -o ../p2/QWEN.md` (also
// `CRUSH.md`, `WARP.md`, `.idx/airules.md`) wrote another project's file that Qwen Code, Crush,
// Warp or Firebase Studio loads there by itself as that project's instructions, exit 0, though
// `.qwen/` and `.crush/` were known as those agents' folders; and with `--json`, `-o
// .devcontainer.json`, `crush.json`, `.crush.json` were written (a dev container's
// `postCreateCommand` runs when an editor opens the project, Crush runs the MCP servers and LSP
// commands its config names) while `.devcontainer/devcontainer.json` and `.crush/` were refused.
// Now the names join the one list of places agents load (UNDECLARED_AGENT_PLACES in
// src/gather/rules/formats.ts, what refuseLoadedAbove reads) and the JSON names the files
// programs run by name (RUN_BY_NAME_FILES).

describe("hostile-output-other-agents-names: -o into another project's file another agent loads by its name", () => {
  it.each([
    ["QWEN.md", "Qwen Code"],
    ["CRUSH.md", "Crush"],
    ["WARP.md", "Warp"],
    [".idx/airules.md", "Firebase Studio"],
    [".openhands/microagents/repo.md", "OpenHands"],
    // rev103b F5
    [".aiassistant/rules/x.md", "JetBrains AI Assistant"],
    [".qoder/rules/x.md", "Qoder"],
    [".tabnine/guidelines/x.md", "Tabnine"],
    [".crush.md", "Crush"],
  ])("render --untrusted -o <other project>/%s: refused, exit 2", async (rel, agent) => {
    const root = cloneBesideProject(
      "wk/proj/.idx",
      "wk/proj/.openhands/microagents",
      "wk/proj/.aiassistant/rules",
      "wk/proj/.qoder/rules",
      "wk/proj/.tabnine/guidelines",
    );
    const target = join(root, "wk/proj", rel);
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain(`(a place of ${agent}'s rules)`);
    expect(existsSync(target)).toBe(false);
  });

  it.each([".devcontainer.json", "crush.json", ".crush.json"])(
    "render --untrusted --json -o %s: refused as a file a program runs by its name, --force or not",
    async (name) => {
      const root = cloneBesideProject();
      for (const argv of [
        ["render", "--untrusted", "--json", "-o", name],
        ["render", "--untrusted", "--json", "-o", name, "--force"],
      ]) {
        const out = await fromEvil(root, argv);
        expect([argv, out.code]).toEqual([argv, 2]);
        expect(out.stderr).toContain(`a file named ${name}`);
      }
      expect(existsSync(join(root, "evil", name))).toBe(false);
    },
  );

  it("held: QWEN.md in the project is the project's own file, written", async () => {
    const root = cloneBesideProject();
    mkdirSync(join(root, "evil/docs"));
    const out = await fromEvil(root, ["render", "--untrusted", "-o", "docs/QWEN.md"]);
    expect(out.code, out.stderr).toBe(0);
  });
});
