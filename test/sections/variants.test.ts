import { rmSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SystemPromptOptions } from "../../src/options.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { layerSections } from "../../src/sections/layer.js";
import type { SectionFile } from "../../src/sections/types.js";
import { matchGlob, variantForModel } from "../../src/sections/variants.js";
import {
  BUILTIN,
  builtinSection,
  copyScenario,
  DEFAULT_RULES_SECTION,
  pinned,
  SHELL_RULE,
} from "../api/_helpers.js";

async function renderVariants(scenario: string, extra: SystemPromptOptions = {}) {
  const root = copyScenario("variants", scenario);
  const cwd = join(root, "project");
  const result = await renderSystemPrompt(pinned(root, { noContextFiles: true, ...extra }));
  return {
    root,
    cwd,
    result,
    section: (name: string) => result.sections.find((s) => s.name === name),
  };
}

describe("matchGlob", () => {
  it.each([
    ["*-mini", "gpt-4o-mini", true],
    ["*-mini", "gpt-4o-mini-2024-07-18", false],
    ["gpt-*", "GPT-4o", true],
    ["gpt-*", "openai/gpt-4o", false],
    ["claude-*haiku*", "claude-3-5-haiku-latest", true],
    ["claude-*haiku*", "claude-sonnet-4", false],
    ["ollama/*", "ollama/llama3.2:1b", true],
    ["*:1b*", "llama3.2:1b-instruct-q4", true],
    ["*:1b*", "llama3.2:13b", false],
    ["m-?", "m-1", true],
    ["m-?", "m-10", false],
    ["*", "", true],
    ["", "", true],
    ["", "x", false],
    ["a**b", "ab", true],
    ["*a*b", "xaxxb", true],
    ["*a*b", "xaxxbc", false],
  ])("%s against %s: %s", (glob, name, expected) => {
    expect(matchGlob(glob, name)).toBe(expected);
  });

  it("agrees with a regular expression built from the glob (on short texts, where that is safe)", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "A", "-", "/"), maxLength: 8 });
    const glob = fc.string({ unit: fc.constantFrom("a", "b", "-", "*", "?"), maxLength: 6 });
    fc.assert(
      fc.property(glob, text, (g, s) => {
        const source = [...g]
          .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[-/]/g, "\\$&")))
          .join("");
        const reference = new RegExp(`^${source}$`, "is").test(s);
        expect(matchGlob(g, s)).toBe(reference);
      }),
    );
  });

  it("stays fast on a glob that makes a backtracking regex explode", () => {
    const glob = `${"*a".repeat(100)}*b`;
    const name = "a".repeat(200);
    const started = performance.now();
    expect(matchGlob(glob, name)).toBe(false);
    // At most glob × name ≈ 40k steps (well under a millisecond); 200 ms leaves room for a
    // loaded machine, while an exponential matcher would not finish at all.
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe("layerSections with variants", () => {
  const file = (
    layer: "builtin" | "user" | "project",
    variant?: { name: string; models: string[] },
  ): SectionFile => {
    const stem = variant ? `rules@${variant.name}` : "rules";
    return {
      name: "rules",
      meta: {},
      body: `${stem} from ${layer}`,
      bodyLine: 1,
      source: {
        layer,
        path: `/${layer}/${stem}.md`,
        ...(variant ? { variant: variant.name } : {}),
      },
      ...(variant ? { variant } : {}),
    };
  };

  it.each([undefined, ""])(
    "no model (%j): plain files only, even where a layer has only a variant",
    (model) => {
      const files = [file("builtin"), file("user", { name: "small", models: ["*"] })];
      const [rules] = layerSections(files, variantForModel(model));
      expect([rules?.source, rules?.lower]).toEqual([
        { layer: "builtin", path: "/builtin/rules.md" },
        undefined,
      ]);
    },
  );

  it("a chosen variant stacks over its own layer's plain file, which stacks over the layer below", () => {
    const files = [
      file("builtin"),
      file("user"),
      file("user", { name: "small", models: ["*-mini"] }),
    ];
    const [rules] = layerSections(files, variantForModel("x-mini"));
    expect(rules?.source).toEqual({
      layer: "user",
      path: "/user/rules@small.md",
      variant: "small",
    });
    expect(rules?.models).toEqual(["*-mini"]);
    expect(rules?.lower?.source).toEqual({ layer: "user", path: "/user/rules.md" });
    expect(rules?.lower?.lower?.source).toEqual({ layer: "builtin", path: "/builtin/rules.md" });
  });
});

describe("per-model variants through renderSystemPrompt", () => {
  it("a project's plain file beats a user's variant; its {{> base}} renders that variant, whose {{> base}} renders the builtin", async () => {
    const { result, cwd, root } = await renderVariants("project-plain-over-user-variant", {
      model: "GPT-4o-mini",
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.sections.find((s) => s.name === "cwd")).toEqual({
      name: "cwd",
      text: [
        "<cwd>",
        `Current working directory: ${cwd}`,
        "User note for small models.",
        "Project note.",
        "</cwd>",
      ].join("\n"),
      source: { layer: "project", path: join(cwd, ".pi", "sections", "cwd.md") },
    });

    // Without the project's file, the user's variant serves the section itself.
    rmSync(join(cwd, ".pi", "sections", "cwd.md"));
    const alone = await renderSystemPrompt(
      pinned(root, { noContextFiles: true, model: "GPT-4o-mini" }),
    );
    expect(alone.sections.find((s) => s.name === "cwd")).toEqual({
      name: "cwd",
      text: `<cwd>\nCurrent working directory: ${cwd}\nUser note for small models.\n</cwd>`,
      source: {
        layer: "user",
        path: join(root, "agent", "sections", "cwd@small.md"),
        variant: "small",
      },
    });
  });

  it("a model the globs do not match, or no model, renders the plain files", async () => {
    for (const model of ["gpt-4o", undefined]) {
      const { section, cwd } = await renderVariants(
        "project-plain-over-user-variant",
        model ? { model } : {},
      );
      expect(section("cwd")?.text).toBe(
        `<cwd>\nCurrent working directory: ${cwd}\nProject note.\n</cwd>`,
      );
    }
  });

  it("within a layer the first matching variant by file name wins; it inherits the plain file's keys and its {{> base}} is that file", async () => {
    const dir = (cwd: string) => join(cwd, ".pi", "sections");
    const a = await renderVariants("first-match-by-file-name", { model: "m-1" });
    expect(a.section("cwd")).toEqual({
      name: "cwd",
      text: `<workdir>\nCurrent working directory: ${a.cwd}\nProject plain.\nVariant a.\n</workdir>`,
      source: { layer: "project", path: join(dir(a.cwd), "cwd@a.md"), variant: "a" },
    });
    const b = await renderVariants("first-match-by-file-name", { model: "other" });
    expect(b.section("cwd")).toEqual({
      name: "cwd",
      text: "<workdir>\nVariant b only.\n</workdir>",
      source: { layer: "project", path: join(dir(b.cwd), "cwd@b.md"), variant: "b" },
    });
    // Variant b set order: 5, so for this model the section moves to the front.
    expect(b.result.sections[0]?.name).toBe("cwd");
    const none = await renderVariants("first-match-by-file-name");
    expect(none.section("cwd")?.source).toEqual({
      layer: "project",
      path: join(dir(none.cwd), "cwd.md"),
    });
  });

  it("bad variants are located diagnostics and ignored: no models, an empty or non-list models, a blank glob, a bad file name", async () => {
    const { result, cwd } = await renderVariants("bad-variants", { model: "anything" });
    const dir = join(cwd, ".pi", "sections");
    const models = (file: string, problem: string, line: number) => ({
      level: "warning",
      code: "variant-models",
      message: `variant file ${problem}; a variant needs models: with at least one glob matched against the model name (such as ["*-mini", "claude-*haiku*"]); ignored`,
      path: join(dir, file),
      line,
      column: 1,
    });
    const name = (file: string) => ({
      level: "warning",
      code: "variant-name",
      message: `"${file}" is not a valid variant file name (^[a-z][a-z0-9_-]*@[a-z0-9_-]+$ plus .md, such as rules@small.md); ignored`,
      path: join(dir, file),
    });
    expect(result.diagnostics).toEqual([
      name("Cwd@x.md"),
      {
        level: "warning",
        code: "section-meta",
        message:
          'frontmatter "models" applies only to a variant file such as cwd@small.md; in a plain section file it is ignored',
        path: join(dir, "cwd.md"),
        line: 2,
      },
      name("cwd@.md"),
      name("cwd@Big.md"),
      name("cwd@a@b.md"),
      models("cwd@blank.md", '"models" must hold non-empty strings only', 2),
      models("cwd@empty.md", '"models" is an empty list, so it would never apply', 2),
      models("cwd@nomodels.md", 'has no "models:" list', 1),
      models(
        "cwd@notlist.md",
        '"models" must be a list of model-name globs such as ["*-mini", "gpt-*"]',
        3,
      ),
      {
        level: "warning",
        code: "section-name",
        message:
          '"system" is the name of the custom base prompt, not a section; to replace the base prompt, use SYSTEM.md or SYSTEM_TEMPLATE.md beside the sections folder; ignored',
        path: join(dir, "system@x.md"),
      },
    ]);
    expect(result.sections.find((s) => s.name === "cwd")).toEqual({
      name: "cwd",
      text: "<cwd>\nPlain cwd.\n</cwd>",
      source: { layer: "project", path: join(dir, "cwd.md") },
    });
  });

  it("a variant that fails to render gives way to its layer's plain file, whole (its tag, not the variant's)", async () => {
    const { result, cwd } = await renderVariants("broken-variant-falls-back", {
      model: "small-1",
    });
    const dir = join(cwd, ".pi", "sections");
    expect(result.sections.find((s) => s.name === "cwd")).toEqual({
      name: "cwd",
      text: `<workdir>\nPlain: ${cwd}\n</workdir>`,
      source: { layer: "project", path: join(dir, "cwd.md") },
    });
    expect(result.diagnostics).toEqual([
      {
        level: "error",
        code: "template",
        message:
          'Block "if" is never closed: expected {{/if}}; the project version is used instead',
        path: join(dir, "cwd@small.md"),
        line: 5,
        column: 1,
      },
    ]);
  });

  it("a frontmatter-only variant changes keys for its models only: enabled: false switches a section off", async () => {
    const off = await renderVariants("variant-switches-off", { model: "gpt-4.1-nano" });
    expect(off.section("environment")).toBeUndefined();
    const on = await renderVariants("variant-switches-off", { model: "gpt-4.1" });
    expect(on.section("environment")?.source).toEqual({
      layer: "builtin",
      path: builtinSection("environment"),
    });
  });
});

describe("the builtin rules@small variant", () => {
  const SMALL_RULES = [
    "<rules>",
    "Rules. Follow each one exactly:",
    `- ${SHELL_RULE}`,
    "- Read a file before you change it.",
    "- Change only what the task asks for.",
    "- After a change, run the project's tests and report what they printed.",
    "- Never say a command ran or passed if it did not.",
    "- Ask the user before you delete files or rewrite git history.",
    "- Write file paths in full.",
    "</rules>",
  ].join("\n");

  it.each([
    ["gpt-4o-mini", true],
    ["gpt-4.1-nano-2025-04-14", true],
    ["gemini-2.0-flash-lite", true],
    ["llama3.2:1b", true],
    ["qwen2.5:3b-instruct", true],
    ["gpt-4o", false],
    ["claude-sonnet-4-5", false],
    ["llama3.1:70b", false],
  ])("%s gets the short rules: %s", async (model, small) => {
    const { section } = await renderVariants("variant-switches-off", { model });
    expect(section("rules")).toEqual({
      name: "rules",
      text: small ? SMALL_RULES : DEFAULT_RULES_SECTION,
      source: small
        ? { layer: "builtin", path: join(BUILTIN, "sections", "rules@small.md"), variant: "small" }
        : { layer: "builtin", path: builtinSection("rules") },
    });
  });

  it("keeps the caller's guidelines word for word, and is shorter than the plain rules", async () => {
    const small = await renderVariants("variant-switches-off", {
      model: "o4-mini",
      promptGuidelines: ["Answer in French; keep identifiers in English."],
    });
    const plain = await renderVariants("variant-switches-off", {
      model: "o4",
      promptGuidelines: ["Answer in French; keep identifiers in English."],
    });
    expect(small.section("rules")?.text.split("\n").slice(0, 4)).toEqual([
      "<rules>",
      "Rules. Follow each one exactly:",
      `- ${SHELL_RULE}`,
      "- Answer in French; keep identifiers in English.",
    ]);
    const length = (text = "") => text.length;
    expect(length(small.section("rules")?.text)).toBeLessThan(
      length(plain.section("rules")?.text) * 0.8,
    );
  });
});
