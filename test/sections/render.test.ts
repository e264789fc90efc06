import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PromptData } from "../../src/data.js";
import { createEngine } from "../../src/engine/index.js";
import { defaultMeta } from "../../src/sections/meta.js";
import { type RenderInput, renderSections } from "../../src/sections/render.js";
import type { SectionMeta, SectionTemplate } from "../../src/sections/types.js";
import type { Layer } from "../../src/types.js";

// The pure render: templates and data in, sections out. No fixture folders
// here on purpose — this is the layer that never sees a file.

const DATA: PromptData = {
  agentName: "Pinned",
  cwd: "/work/app",
  date: "2026-01-15",
  model: null,
  tools: ["read"],
  toolSnippets: [{ name: "read", description: "Read a file." }],
  rules: ["Be careful."],
  guidelines: [],
  environment: [{ label: "Operating system", value: "Linux" }],
  contextFiles: [],
  alwaysRules: [],
  onDemandRules: [],
  agentsMd: [],
  rootAgentsMd: [],
  agentsMdTruncated: false,
  agentsMdLeftOut: 0,
  agentsMdOnTouch: false,
  agentLoads: [],
  workspaceTree: null,
  rootTrees: [],
  roots: [],
  skills: [],
  skillsTool: null,
  appendPrompt: "",
  customPrompt: null,
  docs: null,
  git: null,
  vars: {},
};

function template(
  name: string,
  body: string,
  options: {
    meta?: Partial<SectionMeta>;
    layer?: Layer;
    bodyLine?: number;
    lower?: SectionTemplate;
  } = {},
): SectionTemplate {
  const layer = options.layer ?? "builtin";
  return {
    name,
    meta: { ...defaultMeta(name), ...options.meta },
    body,
    bodyLine: options.bodyLine ?? 1,
    source: { layer, path: `/${layer}/${name}.md` },
    ...(options.lower ? { lower: options.lower } : {}),
  };
}

const render = (input: Omit<RenderInput, "data"> & { data?: PromptData }) =>
  renderSections({ data: DATA, ...input }, createEngine());

const BASE = [
  template("preamble", "You are {{agentName}}.", { meta: { order: 10, tag: false, base: true } }),
  template("tools", "{{#list toolSnippets prefix='- '}}{{name}}: {{description}}{{/list}}", {
    meta: { order: 20, base: true },
  }),
  template("environment", "{{#list environment}}{{label}}: {{value}}{{/list}}", {
    meta: { order: 60 },
  }),
  template("cwd", "cwd: {{cwd}}", { meta: { order: 120 } }),
];

/** A result of stable sections only: one block, the whole text. */
function withStableBlock<T extends { text: string; sections: { name: string }[] }>(out: T) {
  const blocks =
    out.text === ""
      ? []
      : [{ cache: "stable", sections: out.sections.map((x) => x.name), text: out.text }];
  return { ...out, blocks };
}

describe("renderSections", () => {
  it("wraps each section in its tag, leaves tag: false bare and joins with one blank line", () => {
    expect(render({ templates: BASE })).toEqual(
      withStableBlock({
        text: "You are Pinned.\n\n<tools>\n- read: Read a file.\n</tools>\n\n<environment>\nOperating system: Linux\n</environment>\n\n<cwd>\ncwd: /work/app\n</cwd>",
        sections: [
          {
            name: "preamble",
            text: "You are Pinned.",
            source: { layer: "builtin", path: "/builtin/preamble.md" },
          },
          {
            name: "tools",
            text: "<tools>\n- read: Read a file.\n</tools>",
            source: { layer: "builtin", path: "/builtin/tools.md" },
          },
          {
            name: "environment",
            text: "<environment>\nOperating system: Linux\n</environment>",
            source: { layer: "builtin", path: "/builtin/environment.md" },
          },
          {
            name: "cwd",
            text: "<cwd>\ncwd: /work/app\n</cwd>",
            source: { layer: "builtin", path: "/builtin/cwd.md" },
          },
        ],
        diagnostics: [],
      }),
    );
  });

  it("leaves out a disabled section and one whose body renders to blanks", () => {
    const out = render({
      templates: [
        template("a", "kept"),
        template("b", "{{#if docs}}docs{{/if}}\n  \n\t\n"),
        template("c", "off", { meta: { enabled: false } }),
      ],
    });
    expect(out).toEqual(
      withStableBlock({
        text: "<a>\nkept\n</a>",
        sections: [
          {
            name: "a",
            text: "<a>\nkept\n</a>",
            source: { layer: "builtin", path: "/builtin/a.md" },
          },
        ],
        diagnostics: [],
      }),
    );
  });

  it("formats each body: trailing spaces trimmed, blank-line runs collapsed, outer blanks dropped", () => {
    const out = render({ templates: [template("a", "\n\none   \n\n\n\ntwo\t\n\n")] });
    expect(out.text).toBe("<a>\none\n\ntwo\n\n</a>");
  });

  it("inserted values are not rendered again", () => {
    const data = { ...DATA, cwd: "{{agentName}} {{#if x}}" };
    expect(render({ templates: [template("cwd", "cwd: {{cwd}}")], data }).text).toBe(
      "<cwd>\ncwd: {{agentName}} {{#if x}}\n</cwd>",
    );
  });

  describe("a template that fails", () => {
    const builtinCwd = template("cwd", "cwd: {{cwd}}", { meta: { order: 120 } });

    it("falls back to the lower layer's version; the diagnostic has the file line (body line + template line − 1) and column", () => {
      const broken = template("cwd", "Intro.\n\n  {{#each roots}}\n{{this}}\n", {
        layer: "project",
        bodyLine: 5,
        lower: builtinCwd,
      });
      expect(render({ templates: [broken] })).toEqual(
        withStableBlock({
          text: "<cwd>\ncwd: /work/app\n</cwd>",
          sections: [
            {
              name: "cwd",
              text: "<cwd>\ncwd: /work/app\n</cwd>",
              source: { layer: "builtin", path: "/builtin/cwd.md" },
            },
          ],
          diagnostics: [
            {
              level: "error",
              code: "template",
              message:
                'Block "each" is never closed: expected {{/each}}; the builtin version is used instead',
              path: "/project/cwd.md",
              line: 7,
              column: 3,
            },
          ],
        }),
      );
    });

    it("hands over to the lower version whole: its tag, order, enabled and base, not the failed one's", () => {
      const env = template("environment", "env", { meta: { order: 60 } });
      const templates = [
        // tag and order of a broken override do not outlive it.
        template("cwd", "{{#each roots}}", {
          layer: "project",
          meta: { order: 1, tag: "workdir" },
          lower: builtinCwd,
        }),
        // A broken override that switches a section back on: the disabled version below applies.
        template("notes", "{{#if}}", {
          layer: "project",
          meta: { order: 50, enabled: true },
          lower: template("notes", "n", { layer: "user", meta: { order: 50, enabled: false } }),
        }),
        // A broken override that keeps a base section under a custom prompt: the base version is replaced.
        template("tools", "{{> nope}}", {
          layer: "project",
          meta: { order: 20, base: false },
          lower: template("tools", "t", { meta: { order: 20, base: true } }),
        }),
        env,
      ];
      const out = render({
        templates,
        customPrompt: { text: "Custom.", template: false, source: { layer: "option" } },
      });
      expect(out.sections).toEqual([
        { name: "system", text: "Custom.", source: { layer: "option" } },
        {
          name: "environment",
          text: "<environment>\nenv\n</environment>",
          source: { layer: "builtin", path: "/builtin/environment.md" },
        },
        {
          name: "cwd",
          text: "<cwd>\ncwd: /work/app\n</cwd>",
          source: { layer: "builtin", path: "/builtin/cwd.md" },
        },
      ]);
      expect(out.diagnostics.map((d) => [d.path, d.message])).toEqual([
        [
          "/project/cwd.md",
          'Block "each" is never closed: expected {{/each}}; the builtin version is used instead',
        ],
        [
          "/project/notes.md",
          'Block "if" is never closed: expected {{/if}}; the user version is used instead',
        ],
        ["/project/tools.md", 'Partial "nope" not found; the builtin version is used instead'],
      ]);
    });

    it("a missing partial points at the {{> call}}", () => {
      const broken = template("cwd", "x\n\tsee {{> nope}}\n", {
        layer: "user",
        bodyLine: 4,
        lower: builtinCwd,
      });
      expect(render({ templates: [broken] }).diagnostics).toEqual([
        {
          level: "error",
          code: "template",
          message: 'Partial "nope" not found; the builtin version is used instead',
          path: "/user/cwd.md",
          line: 5,
          column: 6,
        },
      ]);
    });

    it("falls through two layers when both overrides fail", () => {
      const user = template("cwd", "{{#if}}", { layer: "user", bodyLine: 1, lower: builtinCwd });
      const project = template("cwd", "{{> missing}}", {
        layer: "project",
        bodyLine: 3,
        lower: user,
      });
      const out = render({ templates: [project] });
      expect(out.sections).toEqual([
        {
          name: "cwd",
          text: "<cwd>\ncwd: /work/app\n</cwd>",
          source: { layer: "builtin", path: "/builtin/cwd.md" },
        },
      ]);
      expect(
        out.diagnostics.map((d) => [
          d.path,
          d.line,
          d.message.endsWith("the user version is used instead") ||
            d.message.endsWith("the builtin version is used instead"),
        ]),
      ).toEqual([
        ["/project/cwd.md", 3, true],
        ["/user/cwd.md", 1, true],
      ]);
    });

    it("{{> base}} over a broken lower layer renders that layer's own fallback", () => {
      const user = template("cwd", "{{#if}}", { layer: "user", lower: builtinCwd });
      const project = template("cwd", "{{> base}}\nmore", { layer: "project", lower: user });
      const out = render({ templates: [project] });
      expect(out.sections).toEqual([
        {
          name: "cwd",
          text: "<cwd>\ncwd: /work/app\nmore\n</cwd>",
          source: { layer: "project", path: "/project/cwd.md" },
        },
      ]);
      expect(out.diagnostics).toHaveLength(1);
    });

    it("each problem is reported once, even when {{> base}} and the fallback both reach the broken file", () => {
      // The project calls {{> base}} (rendering the broken user file), then fails
      // itself, so the fallback tries the user file again.
      const user = template("cwd", "{{#if}}", { layer: "user", bodyLine: 4, lower: builtinCwd });
      const project = template("cwd", "{{> base}}\n{{> missing}}", {
        layer: "project",
        bodyLine: 2,
        lower: user,
      });
      expect(render({ templates: [project] })).toEqual(
        withStableBlock({
          text: "<cwd>\ncwd: /work/app\n</cwd>",
          sections: [
            {
              name: "cwd",
              text: "<cwd>\ncwd: /work/app\n</cwd>",
              source: { layer: "builtin", path: "/builtin/cwd.md" },
            },
          ],
          diagnostics: [
            {
              level: "error",
              code: "template",
              message:
                'Block "if" is never closed: expected {{/if}}; the builtin version is used instead',
              path: "/user/cwd.md",
              line: 4,
              column: 1,
            },
            {
              level: "error",
              code: "template",
              message: 'Partial "missing" not found; the user version is used instead',
              path: "/project/cwd.md",
              line: 3,
              column: 1,
            },
          ],
        }),
      );
    });

    it("a builtin section with no lower layer is left out, with a diagnostic", () => {
      const out = render({ templates: [template("a", "{{#list}}"), template("b", "kept")] });
      expect(out.sections.map((s) => s.name)).toEqual(["b"]);
      expect(
        out.diagnostics.map((d) => [
          d.code,
          d.path,
          d.message.endsWith("; the section is left out"),
        ]),
      ).toEqual([["template", "/builtin/a.md", true]]);
    });

    it("nothing in a template body makes render throw", () => {
      const token = fc.constantFrom(
        "{{",
        "}}",
        "{{#if ",
        "{{/if}}",
        "{{#each ",
        "{{/each}}",
        "{{> ",
        "{{> base}}",
        "{{else}}",
        "{{#list ",
        "{{/list}}",
        "{{{",
        "}}}",
        "{{!--",
        "--}}",
        "\\{{",
        "cwd",
        "tools",
        "..",
        "@root",
        "(",
        ")",
        "=",
        '"',
        "\n",
        " ",
        "x",
        '{{#when a "<" b}}',
        "{{lookup}}",
        "{{log 1}}",
      );
      const body = fc
        .array(fc.oneof(token, fc.string({ maxLength: 5 })), { maxLength: 20 })
        .map((xs) => xs.join(""));
      fc.assert(
        fc.property(body, body, (projectBody, userBody) => {
          const user = template("cwd", userBody, { layer: "user", lower: builtinCwd });
          const project = template("cwd", projectBody, { layer: "project", lower: user });
          const out = render({ templates: [project] });
          expect(typeof out.text).toBe("string");
        }),
        { numRuns: 300 },
      );
    });
  });

  describe("custom base prompt", () => {
    it("replaces every base section with one untagged section, system, at the first base section's place", () => {
      const out = render({
        templates: BASE,
        customPrompt: {
          text: "Custom {{cwd}}.",
          template: false,
          source: { layer: "project", path: "/p/SYSTEM.md" },
        },
      });
      expect(out).toEqual(
        withStableBlock({
          text: "Custom {{cwd}}.\n\n<environment>\nOperating system: Linux\n</environment>\n\n<cwd>\ncwd: /work/app\n</cwd>",
          sections: [
            {
              name: "system",
              text: "Custom {{cwd}}.",
              source: { layer: "project", path: "/p/SYSTEM.md" },
            },
            {
              name: "environment",
              text: "<environment>\nOperating system: Linux\n</environment>",
              source: { layer: "builtin", path: "/builtin/environment.md" },
            },
            {
              name: "cwd",
              text: "<cwd>\ncwd: /work/app\n</cwd>",
              source: { layer: "builtin", path: "/builtin/cwd.md" },
            },
          ],
          diagnostics: [],
        }),
      );
    });

    it("with no base section in the templates, the custom prompt still comes first", () => {
      const out = render({
        templates: BASE.filter((t) => !t.meta.base),
        customPrompt: { text: "Custom.", template: false, source: { layer: "option" } },
      });
      expect(out.sections.map((s) => [s.name, s.text])).toEqual([
        ["system", "Custom."],
        ["environment", "<environment>\nOperating system: Linux\n</environment>"],
        ["cwd", "<cwd>\ncwd: /work/app\n</cwd>"],
      ]);
    });

    it("a template custom prompt renders with the data; a broken one gives a diagnostic and the builtin base", () => {
      const ok = render({
        templates: BASE,
        customPrompt: {
          text: "Custom in {{cwd}}.",
          template: true,
          line: 1,
          source: { layer: "user", path: "/u/SYSTEM_TEMPLATE.md" },
        },
      });
      expect(ok.sections[0]).toEqual({
        name: "system",
        text: "Custom in /work/app.",
        source: { layer: "user", path: "/u/SYSTEM_TEMPLATE.md" },
      });

      const broken = render({
        templates: BASE,
        customPrompt: {
          text: "line one\n{{#if cwd}}",
          template: true,
          line: 1,
          source: { layer: "user", path: "/u/SYSTEM_TEMPLATE.md" },
        },
      });
      expect(broken).toEqual({
        ...render({ templates: BASE }),
        diagnostics: [
          {
            level: "error",
            code: "template",
            message:
              'Block "if" is never closed: expected {{/if}}; the builtin base prompt is used instead',
            path: "/u/SYSTEM_TEMPLATE.md",
            line: 2,
            column: 1,
          },
        ],
      });
    });
  });

  describe("custom prompt chain", () => {
    const which = template(
      "which",
      "in use: {{#if customPrompt}}{{customPrompt}}{{else}}none{{/if}}",
      {
        meta: { order: 125 },
      },
    );
    const user = {
      text: "User {{agentName}}.",
      template: true,
      line: 1,
      source: { layer: "user" as const, path: "/u/SYSTEM_TEMPLATE.md" },
    };
    const project = {
      text: "{{#if}}",
      template: true,
      line: 1,
      source: { layer: "project" as const, path: "/p/SYSTEM_TEMPLATE.md" },
      lower: user,
    };

    it("a failing template gives way to the next candidate; templates see the text in use, not the raw source", () => {
      const out = render({ templates: [...BASE, which], customPrompt: project });
      expect(out.sections.map((s) => [s.name, s.text, s.source.path])).toEqual([
        ["system", "User Pinned.", "/u/SYSTEM_TEMPLATE.md"],
        [
          "environment",
          "<environment>\nOperating system: Linux\n</environment>",
          "/builtin/environment.md",
        ],
        ["cwd", "<cwd>\ncwd: /work/app\n</cwd>", "/builtin/cwd.md"],
        ["which", "<which>\nin use: User Pinned.\n</which>", "/builtin/which.md"],
      ]);
      expect(out.diagnostics.map((d) => [d.path, d.message])).toEqual([
        [
          "/p/SYSTEM_TEMPLATE.md",
          'Block "if" is never closed: expected {{/if}}; the user SYSTEM_TEMPLATE.md is used instead',
        ],
      ]);
    });

    it("the builtin base when every candidate fails; customPrompt is then null, whatever the data said", () => {
      const out = render({
        templates: [...BASE, which],
        customPrompt: { ...project, lower: { ...user, text: "{{> nope}}" } },
        data: { ...DATA, customPrompt: "stale" },
      });
      expect(out.sections.map((s) => s.name)).toEqual([
        "preamble",
        "tools",
        "environment",
        "cwd",
        "which",
      ]);
      expect(out.sections.at(-1)?.text).toBe("<which>\nin use: none\n</which>");
      expect(out.diagnostics.map((d) => d.path)).toEqual([
        "/p/SYSTEM_TEMPLATE.md",
        "/u/SYSTEM_TEMPLATE.md",
      ]);
    });
  });

  describe("extra sections from code", () => {
    const date = template("date", "today", { meta: { order: 130, cache: "volatile" } });

    it("replace a section's body at its place (its tag kept) and add new ones before the volatile sections, tagged by name, in the order given", () => {
      const templates = [
        ...BASE.slice(0, 3),
        template("notes", "n", { meta: { order: 70, tag: "team_notes" } }),
        ...BASE.slice(3),
        date,
      ];
      const out = render({
        templates,
        extraSections: [
          { name: "zeta", text: "Z {{cwd}}" },
          { name: "notes", text: "  New notes.  \n\n\n" },
          { name: "alpha", text: "A" },
          { name: "environment", text: "" },
        ],
      });
      expect(out.sections.map((s) => [s.name, s.text, s.source.layer])).toEqual([
        ["preamble", "You are Pinned.", "builtin"],
        ["tools", "<tools>\n- read: Read a file.\n</tools>", "builtin"],
        ["notes", "<team_notes>\nNew notes.\n</team_notes>", "option"],
        ["cwd", "<cwd>\ncwd: /work/app\n</cwd>", "builtin"],
        ["zeta", "<zeta>\nZ {{cwd}}\n</zeta>", "option"],
        ["alpha", "<alpha>\nA\n</alpha>", "option"],
        ["date", "<date>\ntoday\n</date>", "builtin"],
      ]);
    });

    it("a section from code shows even where a file switched it off, a template rendered it empty or a custom prompt replaced it", () => {
      const templates = [
        BASE[0] as SectionTemplate,
        template("tools", "t", { meta: { order: 20, base: true, tag: "tool_list" } }),
        template("docs", "{{#if docs}}{{docs}}{{/if}}", { meta: { order: 40 } }),
        template("cwd", "cwd", { meta: { order: 120, enabled: false } }),
        date,
      ];
      const out = render({
        templates,
        customPrompt: { text: "Custom.", template: false, source: { layer: "option" } },
        extraSections: [
          { name: "cwd", text: "Given cwd." },
          { name: "docs", text: "Given docs." },
          { name: "tools", text: "Given tools." },
        ],
      });
      expect(out.sections.map((s) => [s.name, s.text, s.source.layer])).toEqual([
        ["system", "Custom.", "option"],
        ["tools", "<tool_list>\nGiven tools.\n</tool_list>", "option"],
        ["docs", "<docs>\nGiven docs.\n</docs>", "option"],
        ["cwd", "<cwd>\nGiven cwd.\n</cwd>", "option"],
        ["date", "<date>\ntoday\n</date>", "builtin"],
      ]);
    });
  });
});

describe("section names in a result are unique", () => {
  it("whatever the templates, custom prompt and sections from code", () => {
    const names = fc.constantFrom("preamble", "tools", "system", "notes", "date");
    const tpl = fc.record({
      name: names,
      base: fc.boolean(),
      enabled: fc.boolean(),
      volatile: fc.boolean(),
      order: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(tpl, { maxLength: 6 }),
        fc.boolean(),
        fc.uniqueArray(names, { maxLength: 3 }),
        (specs, withCustom, codeNames) => {
          const out = render({
            templates: specs.map(({ name, ...meta }) => template(name, `${name} body`, { meta })),
            customPrompt: withCustom
              ? { text: "Custom.", template: false, source: { layer: "option" } }
              : null,
            extraSections: codeNames.map((name) => ({ name, text: `${name} from code` })),
          });
          const seen = out.sections.map((s) => s.name);
          expect(new Set(seen).size).toBe(seen.length);
          expect(out.text).toBe(out.sections.map((s) => s.text).join("\n\n"));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("hand-built input with a name twice keeps the first and says so", () => {
    const out = render({
      templates: [
        template("notes", "first", { meta: { order: 1 } }),
        template("notes", "second", { layer: "project", meta: { order: 2 } }),
        template("system", "a section called system", { layer: "user", meta: { order: 3 } }),
      ],
      customPrompt: { text: "Custom.", template: false, source: { layer: "option" } },
    });
    expect(out).toEqual(
      withStableBlock({
        text: "Custom.\n\n<notes>\nfirst\n</notes>",
        sections: [
          { name: "system", text: "Custom.", source: { layer: "option" } },
          {
            name: "notes",
            text: "<notes>\nfirst\n</notes>",
            source: { layer: "builtin", path: "/builtin/notes.md" },
          },
        ],
        diagnostics: [
          {
            level: "warning",
            code: "section-name",
            message: 'a second section named "notes"; left out (names in a prompt are unique)',
            path: "/project/notes.md",
          },
          {
            level: "warning",
            code: "section-name",
            message: 'a second section named "system"; left out (names in a prompt are unique)',
            path: "/user/system.md",
          },
        ],
      }),
    );
  });
});

describe("custom base prompt placement", () => {
  const others = [
    template("environment", "env", { meta: { order: 60 } }),
    template("date", "today", { meta: { order: 130 } }),
  ];
  const custom = (text: string) => ({
    text,
    template: false,
    source: { layer: "option" as const },
  });

  it("leads when no base section exists at all", () => {
    expect(render({ templates: others, customPrompt: custom("Mine.") }).sections).toEqual([
      { name: "system", text: "Mine.", source: { layer: "option" } },
      {
        name: "environment",
        text: "<environment>\nenv\n</environment>",
        source: others[0]?.source,
      },
      { name: "date", text: "<date>\ntoday\n</date>", source: others[1]?.source },
    ]);
  });

  it("an empty custom prompt leaves the other sections where they are", () => {
    expect(render({ templates: others, customPrompt: custom("  \n") }).text).toBe(
      "<environment>\nenv\n</environment>\n\n<date>\ntoday\n</date>",
    );
  });

  it("takes the place of the first base section even when that one is disabled", () => {
    const templates = [
      template("environment", "env", { meta: { order: 5 } }),
      template("preamble", "builtin", { meta: { order: 10, base: true, enabled: false } }),
      template("date", "today", { meta: { order: 130 } }),
    ];
    expect(
      render({ templates, customPrompt: custom("Mine.") }).sections.map((s) => s.name),
    ).toEqual(["environment", "system", "date"]);
  });
});
