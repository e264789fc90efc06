import { describe, expect, it } from "vitest";
import { builtinHelpers } from "../../helpers/index.js";
import {
  checkTemplate,
  checkTemplateKept,
  MAX_LISTED_NAME_LENGTH,
  MAX_LISTED_NAMES,
  type TemplateContext,
  type TemplateProblem,
} from "../../src/author/check/_template-check.js";
import { PROMPT_DATA_SCHEMA, schemaWithVars } from "../../src/data.js";
import { createEngine } from "../../src/engine/index.js";

const HELPERS = [...Object.keys(builtinHelpers), "if", "unless", "each", "with", "lookup"];

const context: TemplateContext = {
  helpers: new Set(HELPERS),
  partials: new Set(["sig"]),
  root: PROMPT_DATA_SCHEMA,
  fieldLevel: "error",
  isPartial: false,
};

const engine = createEngine();
const check = (source: string, extra: Partial<TemplateContext> = {}) =>
  checkTemplate(source, { ...context, ...extra }, engine);

const field = (line: number, column: number, message: string): TemplateProblem => ({
  level: "error",
  code: "unknown-field",
  message,
  line,
  column,
});

const TOP_FIELDS =
  "agentName, cwd, date, model, tools, toolSnippets, rules, guidelines, environment, contextFiles, alwaysRules, onDemandRules, agentsMd, rootAgentsMd, agentsMdTruncated, agentsMdLeftOut, agentsMdOnTouch, agentLoads, workspaceTree, rootTrees, roots, skills, skillsTool, appendPrompt, customPrompt, docs, git, vars";

describe("checkTemplate: what resolves", () => {
  it.each([
    ["top-level fields and nested fields", "{{cwd}} {{workspaceTree.rendered}} {{model}}"],
    [
      "this and fields inside #list",
      "{{#list toolSnippets}}{{this.name}} {{description}}{{/list}}",
    ],
    ["@index, @first, @last inside #list", "{{#list rules}}{{@index}}{{@first}}{{@last}}{{/list}}"],
    ["@key inside #each", "{{#each environment}}{{@key}} {{label}}{{/each}}"],
    ["../ from an item to the top level", "{{#each tools}}{{../cwd}} {{this}}{{/each}}"],
    ["@root anywhere", "{{#each skills}}{{@root.agentName}}{{/each}}"],
    ["block params", "{{#each skills as |s i|}}{{s.name}} {{i}}{{/each}}"],
    ["#list block params", "{{#list contextFiles as |f|}}{{f.path}}{{/list}}"],
    ["#with enters an object", "{{#with workspaceTree}}{{rendered}}{{truncated}}{{/with}}"],
    ["#if keeps the context, so ../ is not needed", "{{#if tools}}{{cwd}}{{/if}}"],
    ["../ inside #if inside #each", "{{#each tools}}{{#if this}}{{../date}}{{/if}}{{/each}}"],
    [
      "two levels up through #each and #with",
      "{{#each tools}}{{#with ../workspaceTree}}{{rendered}}{{../../cwd}}{{/with}}{{/each}}",
    ],
    ["else of #each is outside the item", "{{#each tools}}{{this}}{{else}}{{cwd}}{{/each}}"],
    ["length and [n] of lists, length of strings", "{{tools.length}} {{tools.[0]}} {{cwd.length}}"],
    ["section blocks over a list", "{{#skills}}{{name}}{{/skills}}"],
    ["helpers with arguments and subexpressions", '{{join (default tools rules) ", "}}'],
    ["a known partial and inline partials", '{{#*inline "x"}}{{cwd}}{{/inline}}{{> sig}}{{> x}}'],
    ["a partial block with a fallback", "{{#> nowhere}}fallback{{/nowhere}}"],
    ["lookup results are not checked", "{{#with (lookup skills 0)}}{{anything}}{{/with}}"],
    [
      "the builtin skills section",
      "{{#ifAll skills skillsTool}}{{#list skills join=''}}{{escapeXml name}}{{/list}}{{/ifAll}}",
    ],
  ])("%s", (_name, source) => {
    expect(check(source)).toEqual([]);
  });
});

describe("checkTemplate: what is reported", () => {
  it("an unknown top-level field, naming the fields there are", () => {
    expect(check("Hi {{agentname}}")).toEqual([
      field(
        1,
        6,
        `unknown field "agentname": the template data has no field "agentname" (it has: ${TOP_FIELDS})`,
      ),
    ]);
  });

  it("a top-level name used inside an item block, with the way to reach it", () => {
    expect(check("{{#list toolSnippets}}\n{{name}} in {{cwd}}{{/list}}")).toEqual([
      field(
        2,
        15,
        'unknown field "cwd": an item of "toolSnippets" has no field "cwd" (it has: name, description); inside this block plain names refer to an item of "toolSnippets", so write {{@root.cwd}} for the top-level one',
      ),
    ]);
  });

  it("a literal name given to lookup that the data lacks, such as a prototype property", () => {
    expect(
      check('{{lookup this "constructor"}}{{lookup skills 0}}{{lookup tools "length"}}'),
    ).toEqual([
      field(
        1,
        15,
        `unknown field "constructor" (looked up with lookup): the template data has no field "constructor" (it has: ${TOP_FIELDS})`,
      ),
    ]);
  });

  it("fields of an item, a nested object and a string", () => {
    expect(
      check(
        "{{#each skills as |s|}}{{s.path}}{{/each}}{{workspaceTree.lines}}{{#each tools}}{{name}}{{/each}}",
      ),
    ).toEqual([
      field(
        1,
        26,
        'unknown field "s.path": an item of "skills" has no field "path" (it has: name, description, location, origin)',
      ),
      field(
        1,
        45,
        'unknown field "workspaceTree.lines": "workspaceTree" has no field "lines" (it has: rendered, truncated)',
      ),
      field(1, 83, 'unknown field "name": an item of "tools" is a string and has no field "name"'),
    ]);
  });

  it("@index outside an iteration, @key in #list, unknown @ names, ../ above the top", () => {
    expect(check("{{@index}}{{#list tools}}{{@key}}{{/list}}{{@nope}}{{../cwd}}")).toEqual([
      field(1, 3, '"@index" is not set here: it exists only inside #each or #list'),
      field(1, 28, '"@key" is not set here: it exists only inside #each'),
      field(
        1,
        45,
        'unknown data variable "@nope"; Handlebars sets @root, @index, @first, @last, @key',
      ),
      field(
        1,
        54,
        '"../cwd" climbs above the template data: no enclosing block here changes the context',
      ),
    ]);
  });

  it("an unknown helper, once, with the helpers there are, at its call as a render places it", () => {
    expect(check("{{#iff tools}}x{{/iff}}\n{{shout cwd}}")).toEqual([
      {
        level: "error",
        code: "unknown-helper",
        message: `unknown helper "iff"; the helpers are: ${HELPERS.join(", ")}`,
        line: 1,
        column: 1,
      },
      {
        level: "error",
        code: "unknown-helper",
        message: `unknown helper "shout"; the helpers are: ${HELPERS.join(", ")}`,
        line: 2,
        column: 1,
      },
    ]);
  });

  it("log is not a helper here", () => {
    expect(check("{{log cwd}}").map((p) => p.message.slice(0, 22))).toEqual([
      'unknown helper "log"; ',
    ]);
  });

  it("an unknown partial, and base where no lower version exists", () => {
    expect(check("{{> signature}}\n{{> base}}")).toEqual([
      {
        level: "error",
        code: "unknown-partial",
        message: 'unknown partial "signature"; the partials here are: sig',
        line: 1,
        column: 5,
      },
      {
        level: "error",
        code: "unknown-partial",
        message:
          'unknown partial "base"; the partials here are: sig ("base" exists only in a section that overrides a lower layer\'s, or in a variant beside its layer\'s plain file)',
        line: 2,
        column: 5,
      },
    ]);
    expect(check("{{> base}}", { partials: new Set(["base"]) })).toEqual([]);
  });

  it("a syntax error stops there, located, without the parser's own line number", () => {
    expect(check("ok\n{{#if tools}}\n{{cwd}")).toEqual([
      {
        level: "error",
        code: "template-syntax",
        message:
          "found a character {{ }} does not allow; expected `}}`, `}}}`, a name or value, `)`, `as |…|`, or a path separator (`.` or `/`)",
        line: 3,
        column: 6,
      },
    ]);
    expect(check("{{#if tools}}\nx")).toEqual([
      {
        level: "error",
        code: "template-syntax",
        message: 'Block "if" is never closed: expected {{/if}}',
        line: 1,
        column: 1,
      },
    ]);
  });

  it("partials report unknown fields at the level they are given", () => {
    expect(check("{{nope}}", { fieldLevel: "warning", isPartial: true })).toEqual([
      {
        ...field(
          1,
          3,
          `unknown field "nope": the template data has no field "nope" (it has: ${TOP_FIELDS})`,
        ),
        level: "warning",
      },
    ]);
    expect(check("{{> @partial-block}}", { isPartial: true })).toEqual([]);
  });
});

describe("checkTemplateKept: the first problems built, the rest counted (review rev44b F1)", () => {
  it("keeps what checkTemplate would give first, and counts the rest and whether one is an error", () => {
    for (const source of [
      "{{> a}}{{> b}}{{> c}}{{> d}}{{> e}}",
      "{{shout 1}}{{shout 2}}{{shout 3}}",
      "{{nope}}{{#each tools}}{{cwd}}{{/each}}{{@index}}{{> x}}",
      "{{vars.a}}{{vars.b}}{{vars.c}}",
      "ok\n{{#if tools}}\n{{cwd}",
      "{{> ok}}",
    ]) {
      const all = checkTemplate(source, context, engine);
      for (const keep of [0, 1, 2, 3]) {
        const kept = checkTemplateKept(source, context, engine, keep);
        const more = all.slice(keep);
        expect([source, keep, kept]).toEqual([
          source,
          keep,
          {
            problems: all.slice(0, keep),
            more: more.length,
            moreErrors: more.some((p) => p.level === "error"),
          },
        ]);
      }
    }
  });

  it("names a few partials, each cut, counts the rest, and suggests a near one", () => {
    const long = (i: number) => `${"p".repeat(100)}${i}`;
    const partials = new Set(["sig", ...Array.from({ length: 30 }, (_, i) => long(i))]);
    const [problem] = check('{{> sgi}}{{#*inline "own"}}x{{/inline}}', { partials });
    const cut = `${"p".repeat(MAX_LISTED_NAME_LENGTH - 1)}…`;
    const listed = ["sig", ...Array.from({ length: MAX_LISTED_NAMES - 1 }, () => cut)];
    expect(problem?.message).toBe(
      `unknown partial "sgi" (did you mean "sig"?); the partials here are: ${listed.join(", ")} and ${32 - MAX_LISTED_NAMES} more`,
    );
    // The comparing spends a budget the templates of one check share: none left, no suggestion.
    const budget = { cells: 5 * 4 };
    expect(check("{{> sgi}}", { suggestBudget: budget })[0]?.message).toBe(
      'unknown partial "sgi" (did you mean "sig"?); the partials here are: sig',
    );
    expect(budget.cells).toBe(4);
    expect(check("{{> sgi}}", { suggestBudget: budget })[0]?.message).toBe(
      'unknown partial "sgi"; the partials here are: sig',
    );
    // The template's own inline partials are candidates too.
    expect(check('{{#*inline "footer"}}x{{/inline}}{{> foter}}')[0]?.message).toBe(
      'unknown partial "foter" (did you mean "footer"?); the partials here are: sig, footer',
    );
  });

  it("cuts the called name and the declared vars alike", () => {
    const called = "q".repeat(5_000);
    const [problem] = check(`{{> ${called}}}`);
    expect(problem?.message).toBe(
      `unknown partial "${"q".repeat(MAX_LISTED_NAME_LENGTH - 1)}…"; the partials here are: sig`,
    );
    const names = [
      "team",
      ...Array.from({ length: 20 }, (_, i) => `v${String(i).padStart(2, "0")}${"x".repeat(80)}`),
    ];
    const [undeclared] = check("{{vars.taem}}", { root: schemaWithVars(names) });
    expect(undeclared?.message).toBe(
      `"vars.taem" is not declared (declared: team, ${Array.from({ length: MAX_LISTED_NAMES - 1 }, (_, i) => `v0${i}${"x".repeat(MAX_LISTED_NAME_LENGTH - 4)}…`).join(", ")} and 13 more; did you mean "team"?): it renders empty unless it is given; declare taem under vars: in sysprompt.yaml, or pass --var taem=VALUE`,
    );
  });
});
