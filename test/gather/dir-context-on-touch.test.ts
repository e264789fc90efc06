import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PromptData } from "../../src/data.js";
import { createEngine } from "../../src/engine/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { parseSectionFile } from "../../src/sections/load.js";
import { defaultMeta } from "../../src/sections/meta.js";
import { renderSections } from "../../src/sections/render.js";
import type { SectionFile, SectionTemplate } from "../../src/sections/types.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { DATA } from "../budget/_world.js";
import { makeTree } from "./_tree.js";

const t = "2026-01-10 08:00";

/** `<root>/main` (cwd) with pkg/AGENTS.md, `<root>/other` (an extra root) with sub/AGENTS.md. */
function workspace(): string {
  const root = tempDir();
  makeTree(join(root, "main"), {
    "AGENTS.md": { at: t, text: "Main rules." },
    "pkg/AGENTS.md": { at: t, text: "Package rules." },
    "pkg/": { at: t },
  });
  makeTree(join(root, "other"), {
    "sub/AGENTS.md": { at: t, text: "Sub rules." },
    "sub/": { at: t },
  });
  return root;
}

const dirContext = async (root: string, extra: Record<string, unknown> = {}) =>
  (
    await renderSystemPrompt({
      ...pinned(root),
      cwd: join(root, "main"),
      workspaceTree: true,
      deadlineMs: 60_000,
      ...extra,
    })
  ).sections.find((s) => s.name === "dir_context")?.text;

const LISTED =
  "Folders below the working directory have instruction files of their own, not loaded yet (paths relative to the working directory):";
const ROOT_LISTED =
  "In the other workspace folders, these subfolders have instruction files of their own, not loaded yet (absolute paths):";
const HOLDS =
  "Such a file holds the rules for its folder and everything under it. Where it disagrees with a file from a folder above, the deeper file wins inside its folder.";
const READ =
  "Before you change any file in one of these folders, read the file listed for it and follow it.";
const ARRIVES =
  "Each file below the working directory comes to you with the result of the first tool call that touches its folder or anything under it (a read, a listing, a search, an edit): before you change a file in one of these folders, read or list something there first, so that its instructions have arrived, and follow them.";
const ROOTS_READ =
  "In the other workspace folders' subfolders listed, read the listed file yourself before you change any file there, and follow it.";

describe("dir_context when the host delivers nested AGENTS.md on touch (contextOnTouch)", () => {
  it("names the files and says they arrive with the first tool result that touches their folder", async () => {
    const root = workspace();
    expect(await dirContext(root, { contextOnTouch: true })).toBe(
      [
        "<dir_context>",
        LISTED,
        "- pkg/AGENTS.md",
        "",
        `${HOLDS} ${ARRIVES}`,
        "</dir_context>",
      ].join("\n"),
    );
  });

  it("off (the default, or false): the section as it always was, asking the model to read them", async () => {
    const root = workspace();
    const before = [
      "<dir_context>",
      LISTED,
      "- pkg/AGENTS.md",
      "",
      `${HOLDS} ${READ}`,
      "</dir_context>",
    ];
    expect(await dirContext(root)).toBe(before.join("\n"));
    expect(await dirContext(root, { contextOnTouch: false })).toBe(before.join("\n"));
  });

  it("an extra root's files are not delivered (outside the project): the model still reads those", async () => {
    const root = workspace();
    expect(await dirContext(root, { contextOnTouch: true, roots: ["../other"] })).toBe(
      [
        "<dir_context>",
        LISTED,
        "- pkg/AGENTS.md",
        ROOT_LISTED,
        `- ${root}/other/sub/AGENTS.md`,
        "",
        `${HOLDS} ${ARRIVES} ${ROOTS_READ}`,
        "</dir_context>",
      ].join("\n"),
    );
  });

  it("only an extra root's files listed: the reading instruction alone", async () => {
    const root = workspace();
    rmSync(join(root, "main", "pkg"), { recursive: true });
    const result = await dirContext(root, { contextOnTouch: true, roots: ["../other"] });
    expect(result).toBe(
      [
        "<dir_context>",
        ROOT_LISTED,
        `- ${root}/other/sub/AGENTS.md`,
        "",
        `${HOLDS} ${ROOTS_READ}`,
        "</dir_context>",
      ].join("\n"),
    );
  });

  it("a bad value is a usage error, as for every boolean option", async () => {
    const root = workspace();
    await expect(dirContext(root, { contextOnTouch: "yes" })).rejects.toThrow(
      'contextOnTouch: must be true or false, got "yes"',
    );
  });
});

describe("dir_context's cut-short note when files come on touch", () => {
  const file = join(import.meta.dirname, "../../prompts/sections/dir_context.md");
  const parsed = parseSectionFile("dir_context", readFileSync(file, "utf8"), file, "builtin");
  const template: SectionTemplate = {
    ...(parsed.section as SectionFile),
    meta: { ...defaultMeta("dir_context"), ...parsed.section?.meta },
  };
  const render = (data: Partial<PromptData>) =>
    renderSections(
      { templates: [template], data: { ...DATA, agentsMd: ["a/AGENTS.md"], ...data } },
      createEngine(),
    ).sections[0]?.text.split("\n");

  it("says the unlisted ones below cwd come the same way; another workspace folder's are still looked for", () => {
    expect(render({ agentsMdTruncated: true, agentsMdOnTouch: true })?.slice(-2)).toEqual([
      "This list is cut short: more folders have such a file than it shows. Those below the working directory, listed or not, come with a tool result in the same way.",
      "</dir_context>",
    ]);
    expect(
      render({ agentsMdTruncated: true, agentsMdOnTouch: true, roots: ["/r"] })?.slice(-2),
    ).toEqual([
      "This list is cut short: more folders have such a file than it shows. Those below the working directory, listed or not, come with a tool result in the same way. In another workspace folder, before you change a file in a folder not listed here, look for an instruction file (such as AGENTS.md) in that folder and in the folders above it, up to the workspace folder that holds it.",
      "</dir_context>",
    ]);
  });

  it("off: the note as it always was", () => {
    expect(render({ agentsMdTruncated: true })?.slice(-2)).toEqual([
      "This list is cut short: more folders have such a file than it shows. Before you change a file in a folder not listed here, look for an instruction file (such as AGENTS.md) in that folder and in the folders above it, up to the working directory.",
      "</dir_context>",
    ]);
  });
});
