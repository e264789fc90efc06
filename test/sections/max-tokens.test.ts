import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { layerSections } from "../../src/sections/layer.js";
import { readSectionMeta } from "../../src/sections/meta.js";
import type { SectionFile } from "../../src/sections/types.js";
import { tokenCounter } from "../../src/tokens.js";
import { copyScenario, pinned } from "../api/_helpers.js";
import { cli, pinMachine } from "../cli/_run.js";

pinMachine();

const PATH = "/fixture/.pi/sections/team.md";

/**
 * The scenario: the user layer's `notes` declares `maxTokens: 12`; the
 * project's `notes` replaces its body (21 tokens) without setting the key, so
 * it inherits the limit. The project's `team` (10 tokens) is under its 100.
 */
const NOTES_WARNING = (root: string) => ({
  level: "warning",
  code: "section-max-tokens",
  message: 'section "notes" is about 21 tokens (o200k_base estimate), over its maxTokens of 12',
  path: join(root, "project", ".pi", "sections", "notes.md"),
});

/** The project's notes.md takes the place of yours: said since review rev50d F4. */
const REPLACED = (root: string) => ({
  level: "warning",
  code: "user-text-left-out",
  message: `your section "notes" (${join(root, "agent", "sections", "notes.md")}) is left out: the project's ${join(root, "project", ".pi", "sections", "notes.md")} takes its place (a project's section of a name replaces yours, as in pi); run with --untrusted, or remove the project's file, to have yours back`,
  path: join(root, "project", ".pi", "sections", "notes.md"),
});

describe("maxTokens frontmatter", () => {
  it("is a whole number of tokens, 1 or more; anything else is dropped with a warning", () => {
    expect(readSectionMeta({ maxTokens: 400 }, PATH)).toEqual({
      meta: { maxTokens: 400 },
      diagnostics: [],
    });
    for (const value of [0, -3, 1.5, "400", Number.POSITIVE_INFINITY, null]) {
      expect(readSectionMeta({ maxTokens: value }, PATH)).toEqual({
        meta: {},
        diagnostics: [
          {
            level: "warning",
            code: "section-meta",
            message: 'frontmatter "maxTokens" must be a whole number of tokens, 1 or more; ignored',
            path: PATH,
          },
        ],
      });
    }
  });

  it("is inherited by an override that does not set it, like every key", () => {
    const file = (layer: "user" | "project", meta: SectionFile["meta"]): SectionFile => ({
      name: "notes",
      meta,
      body: "x",
      bodyLine: 1,
      source: { layer, path: `/${layer}/notes.md` },
    });
    const [notes] = layerSections([file("user", { maxTokens: 12 }), file("project", {})]);
    expect(notes?.meta.maxTokens).toBe(12);
  });

  it("an overrun is a warning in render, naming the file that overran", async () => {
    const root = copyScenario("explain", "max-tokens");
    const result = await renderSystemPrompt(pinned(root));
    expect(result.diagnostics).toEqual([REPLACED(root), NOTES_WARNING(root)]);
    // The count is the section as it stands in the prompt, tags included.
    const notes = result.sections.find((s) => s.name === "notes");
    expect(notes?.text).toBe(
      "<notes>\nThese notes are longer than the twelve tokens the user layer allows for them.\n</notes>",
    );
    expect(tokenCounter()(notes?.text ?? "")).toBe(21);
  });

  it("sysprompt render prints the warning on stderr, and --strict does not fail on it", async () => {
    const root = copyScenario("explain", "max-tokens");
    const out = await cli(root, ["render", "--strict"]);
    const w = NOTES_WARNING(root);
    const r = REPLACED(root);
    expect(out.stderr).toBe(
      `warning ${r.path} [${r.code}] ${r.message}\nwarning ${w.path} [${w.code}] ${w.message}\n`,
    );
    expect(out.code).toBe(0);
  });
});

describe("tokenCounter", () => {
  it("counts text that looks like a special token as plain text instead of throwing", () => {
    expect(tokenCounter()("a <|endoftext|> b")).toBe(9);
  });
});
