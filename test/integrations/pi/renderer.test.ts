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
