import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { layerSections } from "../../src/sections/layer.js";
import type { SectionFile } from "../../src/sections/types.js";
import type { RenderedSection } from "../../src/types.js";
import {
  builtinSection,
  copyScenario,
  cwdSection,
  DATE_SECTION,
  DEFAULT_RULES_SECTION,
  DEFAULT_TOOLS_SECTION,
  ENVIRONMENT_SECTION,
  GENERAL_RULES,
  PREAMBLE,
  pinned,
  SHELL_RULE,
} from "../api/_helpers.js";

const file = (
  name: string,
  layer: "builtin" | "user" | "project",
  meta: SectionFile["meta"],
  body = `${name} from ${layer}`,
): SectionFile => ({
  name,
  meta,
  body,
  bodyLine: 1,
  source: { layer, path: `/${layer}/${name}.md` },
});

/** The builtin sections of a default render, by name, as `renderSystemPrompt` reports them. */
function builtin(cwd: string): Record<string, RenderedSection> {
  const at = (name: string, text: string): RenderedSection => ({
    name,
    text,
    source: { layer: "builtin", path: builtinSection(name) },
  });
  return {
    preamble: at("preamble", PREAMBLE),
    tools: at("tools", DEFAULT_TOOLS_SECTION),
    rules: at("rules", DEFAULT_RULES_SECTION),
    environment: at("environment", ENVIRONMENT_SECTION),
    cwd: at("cwd", cwdSection(cwd)),
    date: at("date", DATE_SECTION),
  };
}

async function renderScenario(scenario: string) {
  const root = copyScenario("layers", scenario);
  const cwd = join(root, "project");
  const result = await renderSystemPrompt(pinned(root, { noContextFiles: true }));
  return { root, cwd, result, b: builtin(cwd), project: join(cwd, ".pi", "sections") };
}

describe("layerSections", () => {
  it("an override inherits every key it does not set and keeps the replaced version as lower", () => {
    const lowest = file("rules", "builtin", { order: 30, base: true, description: "Rules." });
    const user = file("rules", "user", { tag: "house_rules" });
    const project = file("rules", "project", { description: "Ours." });
    const userTemplate = {
      name: "rules",
      meta: {
        order: 30,
        tag: "house_rules",
        base: true,
        cache: "stable",
        enabled: true,
        description: "Rules.",
        shrink: null,
      },
      body: "rules from user",
      bodyLine: 1,
      source: { layer: "user", path: "/user/rules.md" },
      lower: {
        name: "rules",
        meta: {
          order: 30,
          tag: "rules",
          base: true,
          cache: "stable",
          enabled: true,
          description: "Rules.",
          shrink: null,
        },
        body: "rules from builtin",
        bodyLine: 1,
        source: { layer: "builtin", path: "/builtin/rules.md" },
      },
    };
    expect(layerSections([lowest, user, project])).toEqual([
      {
        name: "rules",
        meta: { ...userTemplate.meta, description: "Ours." },
        body: "rules from project",
        bodyLine: 1,
        source: { layer: "project", path: "/project/rules.md" },
        lower: userTemplate,
      },
    ]);
  });

  it("sorts by class (stable, session, volatile), then by order, ties by name (code-unit order)", () => {
    const names = layerSections([
      file("clock", "builtin", { order: 5, cache: "volatile" }),
      file("tree", "builtin", { order: 1, cache: "session" }),
      file("zeta", "builtin", { order: 10 }),
      file("beta", "builtin", { order: 20 }),
      file("alpha", "builtin", { order: 20 }),
      file("first", "builtin", { order: -1 }),
      file("date", "builtin", { order: 130, cache: "session" }),
      file("unordered", "builtin", {}),
    ]).map((t) => [t.name, t.meta.order, t.meta.cache]);
    expect(names).toEqual([
      ["first", -1, "stable"],
      ["zeta", 10, "stable"],
      ["alpha", 20, "stable"],
      ["beta", 20, "stable"],
      ["unordered", 1000, "stable"],
      ["tree", 1, "session"],
      ["date", 130, "session"],
      ["clock", 5, "volatile"],
    ]);
  });

  it("an override that sets its class moves its section among that class", () => {
    const names = layerSections([
      file("environment", "builtin", { order: 60, cache: "session" }),
      file("date", "builtin", { order: 130, cache: "session" }),
      file("cwd", "builtin", { order: 120 }),
      file("environment", "project", { cache: "volatile" }),
      file("date", "project", { cache: "stable" }),
    ]).map((t) => t.name);
    expect(names).toEqual(["cwd", "date", "environment"]);
  });
});

describe("layers through renderSystemPrompt", () => {
  it("an override without order/tag/base inherits them from the builtin section", async () => {
    const { result, b, project } = await renderScenario("override-inherits-meta");
    expect(result.diagnostics).toEqual([]);
    expect(result.sections).toEqual([
      b.preamble,
      b.tools,
      {
        name: "rules",
        text: `<rules>\nHouse rules:\n${[SHELL_RULE, ...GENERAL_RULES].map((r) => `* ${r}`).join("\n")}\n</rules>`,
        source: { layer: "project", path: join(project, "rules.md") },
      },
      b.cwd,
      b.environment,
      b.date,
    ]);
  });

  it("an override inherits base: true, so a custom base prompt replaces it too", async () => {
    const { root } = await renderScenario("override-inherits-meta");
    const result = await renderSystemPrompt(
      pinned(root, { noContextFiles: true, systemPrompt: "Custom base." }),
    );
    expect(result.sections.map((s) => s.name)).toEqual(["system", "cwd", "environment", "date"]);
  });

  it("{{> base}} renders the builtin version it replaces", async () => {
    const { result, b, project } = await renderScenario("project-override-with-base");
    expect(result.diagnostics).toEqual([]);
    expect(result.sections).toEqual([
      b.preamble,
      {
        name: "tools",
        text: DEFAULT_TOOLS_SECTION.replace(
          "\n</tools>",
          "\n\nAsk before installing packages.\n\n</tools>",
        ),
        source: { layer: "project", path: join(project, "tools.md") },
      },
      b.rules,
      b.cwd,
      b.environment,
      b.date,
    ]);
  });

  it("two levels: project {{> base}} renders the user override, whose {{> base}} renders the builtin", async () => {
    const { result, b, project, cwd } = await renderScenario("project-over-user-over-builtin");
    expect(result.diagnostics).toEqual([]);
    expect(result.sections).toEqual([
      b.preamble,
      b.tools,
      b.rules,
      {
        name: "cwd",
        // The user layer set `tag: workdir`; the project override inherits it.
        text: [
          "<workdir>",
          `Current working directory: ${cwd}`,
          "User note: keep scratch files in /tmp.",
          "Project note: generated code lives in gen/.",
          "</workdir>",
        ].join("\n"),
        source: { layer: "project", path: join(project, "cwd.md") },
      },
      b.environment,
      b.date,
    ]);
  });

  it("{{> base}} on its own line keeps its line even when the lower file has no final newline", async () => {
    const { result, project, cwd } = await renderScenario("base-without-final-newline");
    expect(result.sections.find((s) => s.name === "cwd")).toEqual({
      name: "cwd",
      text: [
        "<cwd>",
        `Current working directory: ${cwd}`,
        "User note: keep scratch files in /tmp.",
        "Project note: generated code lives in gen/.",
        "</cwd>",
      ].join("\n"),
      source: { layer: "project", path: join(project, "cwd.md") },
    });
  });

  it("enabled: false switches a section off", async () => {
    const { result, b } = await renderScenario("disabled-section");
    expect(result.diagnostics).toEqual([]);
    expect(result.sections).toEqual([b.preamble, b.tools, b.rules, b.cwd, b.date]);
  });

  it("switched off by the user, back on in the project: {{> base}} is the body below the switch", async () => {
    const { root, result, b, project } = await renderScenario("disabled-below-comes-back");
    const environment = (text: string): RenderedSection => ({
      name: "environment",
      text,
      source: { layer: "project", path: join(project, "environment.md") },
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.sections).toEqual([
      b.preamble,
      b.tools,
      b.rules,
      b.cwd,
      environment(
        ENVIRONMENT_SECTION.replace("\n</environment>", "\n- Shell: bash\n</environment>"),
      ),
      b.date,
    ]);

    // The same with a frontmatter-only project file: it switches the section
    // back on and keeps the body below (the user file has none of its own).
    writeFileSync(join(project, "environment.md"), "---\nenabled: true\n---\n");
    const again = await renderSystemPrompt(pinned(root, { noContextFiles: true }));
    expect(again.diagnostics).toEqual([]);
    expect(again.sections).toEqual([
      b.preamble,
      b.tools,
      b.rules,
      b.cwd,
      environment(ENVIRONMENT_SECTION),
      b.date,
    ]);
  });

  it("a frontmatter-only override changes only the keys it sets and keeps the body below it", async () => {
    const { result, b, project } = await renderScenario("frontmatter-only-override");
    expect(result.diagnostics).toEqual([]);
    // order: 5 moves it first among the session sections: a class is never left.
    expect(result.sections).toEqual([
      b.preamble,
      b.tools,
      b.rules,
      b.cwd,
      {
        name: "environment",
        text: ENVIRONMENT_SECTION.replaceAll("environment>", "machine>"),
        source: { layer: "project", path: join(project, "environment.md") },
      },
      b.date,
    ]);
  });

  it("volatile sections come last: a new section without an order lands before the session sections, a volatile one after date", async () => {
    const { root, result, b, project } = await renderScenario("volatile-last");
    const added = (name: string, body: string): RenderedSection => ({
      name,
      text: `<${name}>\n${body}\n</${name}>`,
      source: { layer: "project", path: join(project, `${name}.md`) },
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.sections).toEqual([
      b.preamble,
      b.tools,
      b.rules,
      b.cwd,
      added("team", "The team reviews every change."),
      b.environment,
      b.date,
      // volatile, order 1: after every stable and session section.
      added("build", "Build number: 42"),
    ]);

    // Sections from code: a builtin name (here one whose template renders
    // empty) takes that section's place and tag; a new name goes after the
    // stable sections, before the session ones, in the order given.
    const withCode = await renderSystemPrompt(
      pinned(root, {
        noContextFiles: true,
        sections: { zeta: "Z.", workspace_tree: "src/\n  a.ts", alpha: "A." },
      }),
    );
    const code = (name: string, body: string, tag = name): RenderedSection => ({
      name,
      text: `<${tag}>\n${body}\n</${tag}>`,
      source: { layer: "option" },
    });
    expect(withCode.sections).toEqual([
      b.preamble,
      b.tools,
      b.rules,
      b.cwd,
      added("team", "The team reviews every change."),
      code("zeta", "Z."),
      code("alpha", "A."),
      b.environment,
      code("workspace_tree", "src/\n  a.ts"),
      b.date,
      added("build", "Build number: 42"),
    ]);
  });

  it("a new name adds a section at its order; equal orders sort by name", async () => {
    const { result, b, project } = await renderScenario("new-section-at-order");
    const added = (name: string, body: string): RenderedSection => ({
      name,
      text: `<${name}>\n${body}\n</${name}>`,
      source: { layer: "project", path: join(project, `${name}.md`) },
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.sections).toEqual([
      b.preamble,
      b.tools,
      b.rules,
      added("team", "The team reviews every change."),
      added("alpha", "Sorted before cwd: same order, smaller name."),
      b.cwd,
      added("omega", "Sorted after cwd: same order, larger name."),
      b.environment,
      b.date,
    ]);
  });

  it("tag names the wrapper, tag: false has none, and a section that renders empty is left out", async () => {
    const { result, b, project } = await renderScenario("tags-and-empty");
    expect(result.diagnostics).toEqual([]);
    expect(result.sections).toEqual([
      b.preamble,
      b.tools,
      b.rules,
      {
        name: "notes",
        text: "<team_notes>\nTagged by its tag, not its name.\n</team_notes>",
        source: { layer: "project", path: join(project, "notes.md") },
      },
      {
        name: "plain",
        text: "No tag around this one.",
        source: { layer: "project", path: join(project, "plain.md") },
      },
      b.cwd,
      b.environment,
      b.date,
    ]);
    expect(result.text).toBe(result.sections.map((s) => s.text).join("\n\n"));
  });
});
