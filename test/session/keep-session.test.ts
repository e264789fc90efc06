import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { openPromptSession } from "../../src/session/session.js";
import {
  comparable,
  projectOptions,
  sectionText,
  sessionProject,
  TRUST_EVERY_STAT,
  write,
} from "./_project.js";

const withTree = (root: string) => projectOptions(root, { workspaceTree: true });

describe("a prompt session with keepSessionSections", () => {
  it("keeps session sections byte-identical while the workspace and the date change; stable ones follow their files", async () => {
    const { root } = sessionProject();
    const session = openPromptSession(withTree(root), TRUST_EVERY_STAT, {
      keepSessionSections: true,
    });
    const first = (await session.render()).result;
    expect(first.blocks.map((b) => b.cache)).toEqual(["stable", "session"]);
    expect(sectionText(first, "workspace_tree")).toContain("index.ts");

    // A source file edited, a file added, the next day: nothing in the prompt moves.
    write(root, "project/src/index.ts", "export const x = 2;\n");
    write(root, "project/src/new.ts", "export {};\n");
    const second = await session.render({ now: "2026-01-16T10:00:00Z" });
    expect(second.changes).toBeUndefined();
    expect(second.result.text).toBe(first.text);
    // …while a render without the session has moved on.
    const fresh = await renderSystemPrompt({ ...withTree(root), now: "2026-01-16T10:00:00Z" });
    expect(sectionText(fresh, "workspace_tree")).toContain("new.ts");
    expect(sectionText(fresh, "date")).toBe("<date>\nToday's date: 2026-01-16\n</date>");

    // An instruction file edited: its stable section changes, and only it.
    write(root, "project/AGENTS.md", "# Project\n\nRun `npm run check` first.\n");
    const third = await session.render({ now: "2026-01-16T10:00:00Z" });
    expect(Object.keys(third.changes ?? {})).toEqual(["project_context"]);
    expect(third.result.text.startsWith(first.blocks[0]?.text ?? "x")).toBe(false);
    expect(third.result.blocks[1]).toEqual(first.blocks[1]);
    expect(third.result.blocks.map((b) => b.text).join("")).toBe(third.result.text);

    // refresh(): the next render takes fresh session sections, and is then
    // exactly what renderSystemPrompt gives.
    session.refresh();
    const fourth = await session.render({ now: "2026-01-16T10:00:00Z" });
    expect(Object.keys(fourth.changes ?? {}).sort()).toEqual(["date", "workspace_tree"]);
    const now = await renderSystemPrompt({ ...withTree(root), now: "2026-01-16T10:00:00Z" });
    expect(comparable(fourth.result)).toEqual(comparable(now));
    session.close();
  });

  it("without the option, a session follows every change (as before)", async () => {
    const { root } = sessionProject();
    const session = openPromptSession(withTree(root), TRUST_EVERY_STAT);
    await session.render();
    const next = await session.render({ now: "2026-01-16T10:00:00Z" });
    expect(Object.keys(next.changes ?? {})).toEqual(["date"]);
    session.close();
  });

  it("a section that leaves the session class is taken fresh; refresh() on a closed session throws", async () => {
    const { root } = sessionProject();
    const session = openPromptSession(withTree(root), TRUST_EVERY_STAT, {
      keepSessionSections: true,
    });
    await session.render();
    write(root, "project/.pi/sections/date.md", "---\ncache: stable\n---\n");
    const next = await session.render({ now: "2026-01-16T10:00:00Z" });
    expect(next.changes).toEqual({ date: "<date>\nToday's date: 2026-01-16\n</date>" });
    expect(next.result.blocks.map((b) => [b.cache, b.sections.includes("date")])).toEqual([
      ["stable", true],
      ["session", false],
    ]);
    expect(next.result.blocks.map((b) => b.text).join("")).toBe(next.result.text);
    session.close();
    expect(() => session.refresh()).toThrow("the session is closed");
  });
});
