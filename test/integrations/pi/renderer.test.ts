import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionRenderer } from "../../../src/integrations/pi/renderer.js";
import { renderSystemPrompt } from "../../../src/render-system-prompt.js";
import { pinned, tempDir } from "../../api/_helpers.js";

describe("sessionRenderer (one prompt session per pi session)", () => {
  it("renders what renderSystemPrompt renders, turn after turn, and sees an edit", async () => {
    const root = tempDir();
    const options = pinned(root, { model: "m1" });
    writeFileSync(join(root, "project", "AGENTS.md"), "First version.\n");
    const renderer = sessionRenderer();
    expect((await renderer.render(options)).text).toBe((await renderSystemPrompt(options)).text);
    // A per-turn option (the model) changes without a new session.
    const turn2 = { ...options, model: "m2" };
    expect((await renderer.render(turn2)).text).toBe((await renderSystemPrompt(turn2)).text);
    // The file is rewritten with a different size, so the session's stat check sees it.
    writeFileSync(join(root, "project", "AGENTS.md"), "Second, longer version.\n");
    const edited = await renderer.render(turn2);
    expect(edited.text).toContain("Second, longer version.");
    expect(edited.text).toBe((await renderSystemPrompt(turn2)).text);
    renderer.close();
  });

  it("starts a new session when a session-wide option (cwd) changes", async () => {
    const root = tempDir();
    const other = join(root, "other");
    mkdirSync(other);
    writeFileSync(join(other, "AGENTS.md"), "Other project.\n");
    const renderer = sessionRenderer();
    await renderer.render(pinned(root));
    const moved = pinned(root, { cwd: other });
    const result = await renderer.render(moved);
    expect(result.text).toBe((await renderSystemPrompt(moved)).text);
    expect(result.text).toContain("Other project.");
    renderer.close();
  });
});

describe("sessionRenderer keeps a session's prompt while only the workspace and the date change", () => {
  it("session sections as first taken until refresh(); a model switch takes fresh ones (the environment states the model)", async () => {
    const root = tempDir();
    const options = pinned(root, { model: "m1", workspaceTree: true, treeMtime: 0 });
    const renderer = sessionRenderer();
    const first = await renderer.render(options);
    const nextDay = { ...options, now: "2026-01-16T10:00:00Z" };
    writeFileSync(join(root, "project", "new.ts"), "export {};\n");
    expect((await renderer.render(nextDay)).text).toBe(first.text);
    // An instruction file: the stable part follows it, the session part stays.
    writeFileSync(join(root, "project", "AGENTS.md"), "Be brief.\n");
    const edited = await renderer.render(nextDay);
    expect(edited.text).toContain("Be brief.");
    expect(edited.blocks[1]).toEqual(first.blocks[1]);
    renderer.refresh?.();
    expect((await renderer.render(nextDay)).text).toBe((await renderSystemPrompt(nextDay)).text);
    const m2 = { ...nextDay, model: "m2", now: "2026-01-17T10:00:00Z" };
    expect((await renderer.render(m2)).text).toBe((await renderSystemPrompt(m2)).text);
    renderer.close();
  });
});
