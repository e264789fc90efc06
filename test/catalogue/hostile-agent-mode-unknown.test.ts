import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { cli, pinMachine, usageHint } from "../cli/_run.js";

pinMachine();

// Review rev50d F8 (low): `--agent-mode YOLO` (or `bogus`, or any mode for pi,
// whose preset has none) exited 0 with the preset's plain tools and no word: a
// typo silently gave the model the wrong tool list, the one thing a mode picks.
// Now a mode the chosen preset's tool sets do not name is a usage error (exit 2)
// listing that preset's modes; in a sysprompt.yaml, a located error.

describe("hostile input: an agent mode the preset does not have", () => {
  it("the flag exits 2 with the preset's modes; a known mode and default still render", async () => {
    const root = tempDir();
    const yolo = await cli(root, ["render", "--agent", "gemini-cli", "--agent-mode", "YOLO"]);
    expect(yolo).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: agent-mode: no mode "YOLO" (did you mean "yolo"?); the modes of gemini-cli are: default, auto_edit, yolo, plan\n${usageHint("render")}`,
    });
    const pi = await cli(root, ["render", "--agent", "pi", "--agent-mode", "yolo"]);
    expect(pi.code).toBe(2);
    expect(pi.stderr).toContain(
      'agent-mode: no mode "yolo"; the pi preset has no modes but default (its tools do not change with one)',
    );
    for (const mode of ["yolo", "default"]) {
      const ok = await cli(root, ["render", "--agent", "gemini-cli", "--agent-mode", mode]);
      expect([ok.code, ok.stderr]).toEqual([0, ""]);
    }
  });

  it("a config file's unknown mode is a located error, and the plain tools apply", async () => {
    const root = tempDir();
    writeFiles(root, { "project/.pi/sysprompt.yaml": "agent: gemini-cli\nagent-mode: bogus\n" });
    const result = await renderSystemPrompt(
      pinned(root, { configFiles: true, projectTrusted: true }),
    );
    expect(result.diagnostics.filter((d) => d.code === "config-bad-value")).toEqual([
      {
        level: "error",
        code: "config-bad-value",
        message:
          'agent-mode: no mode "bogus"; the modes of gemini-cli are: default, auto_edit, yolo, plan; the key is ignored',
        path: join(root, "project/.pi/sysprompt.yaml"),
        line: 2,
      },
    ]);
    const plain = await renderSystemPrompt(pinned(root, { agent: "gemini-cli" }));
    expect(result.sections.find((s) => s.name === "tools")).toEqual(
      plain.sections.find((s) => s.name === "tools"),
    );
  });
});
