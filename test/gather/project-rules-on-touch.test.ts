import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

/** A project with one glob rule and one description-only rule (Cursor's format). */
function project(): string {
  const root = tempDir();
  const rules = join(root, "app", ".cursor", "rules");
  mkdirSync(join(root, "app", ".git"), { recursive: true });
  mkdirSync(rules, { recursive: true });
  writeFileSync(join(rules, "ts.mdc"), "---\nglobs: src/**/*.ts\n---\nUse strict types.\n");
  writeFileSync(
    join(rules, "release.mdc"),
    "---\ndescription: How to cut a release\n---\nTag, then publish.\n",
  );
  return root;
}

const projectRules = async (root: string, extra: Record<string, unknown> = {}) =>
  (await renderSystemPrompt({ ...pinned(root), cwd: join(root, "app"), ...extra })).sections.find(
    (s) => s.name === "project_rules",
  )?.text ?? "";

const READ_YOURSELF =
  "Before you work on files that a rule's globs match, or when its description fits your task, read the rule's file and follow it:";
const ARRIVES =
  "A rule with globs comes to you with the result of the first tool call that touches a file it matches (a read, a listing, a search, an edit): before you change such a file, read it first, so that the rule has arrived, and follow it. When a rule's description fits your task, read the rule's file yourself and follow it:";

describe("project_rules when the host delivers glob rules on touch (contextOnTouch)", () => {
  it("says a glob rule arrives with the first tool result that touches a file it matches", async () => {
    const text = await projectRules(project(), { contextOnTouch: true });
    expect(text).toContain(ARRIVES);
    expect(text).not.toContain(READ_YOURSELF);
    expect(text).toMatch(/- ts \(src\/\*\*\/\*\.ts\) — .*ts\.mdc/);
    expect(text).toMatch(/- release: How to cut a release — .*release\.mdc/);
  });

  it("off (the default): asks the model to read every listed rule itself, as before", async () => {
    const root = project();
    const text = await projectRules(root);
    expect(text).toContain(READ_YOURSELF);
    expect(text).not.toContain(ARRIVES);
    expect(await projectRules(root, { contextOnTouch: false })).toBe(text);
  });
});
