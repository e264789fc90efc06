import fc from "fast-check";
import type { PromptData } from "../../src/data.js";

// Generators shared by the property tests and the fuzz run: templates and
// frontmatter built from the tokens that matter to Handlebars and YAML, so
// that random text reaches the parsers' corners rather than plain prose.

const TEMPLATE_TOKENS = [
  ...["{{", "}}", "{{#", "{{/", "{{> ", "{{else}}", "{{else if rules}}", "{{^", "{{{", "}}}"],
  ...["{{!--", "--}}", "{{!", "{{{{", "}}}}", "{{~", "~}}", "(", ")", "[", "]", "|", "="],
  ...["if", "each", "list", "with", "lookup", "unless", "ifAny", "when", "has", "join", "len"],
  ...[
    "xml",
    "default",
    "not",
    "escapeXml",
    "includes",
    "log",
    "helperMissing",
    "blockHelperMissing",
  ],
  ...["this", "../", ".", "/", "@index", "@key", "@root", "@first", "@partial-block", "as |a b|"],
  ...["tools", "cwd", "rules", "skills", "contextFiles", "path", "content", "workspaceTree"],
  ...["rendered", "agentsMd", "constructor", "__proto__", "prototype", "base", "p", "q"],
  ...['{{#*inline "p"}}', "{{/inline}}", "{{> p}}", "{{#> p}}", "{{*", '"', "'", '"=="', "1"],
  ...["true", "null", 'prefix="- "', 'join=", "', "```", "\\", "\\{{", " ", "\n", "x", "é"],
];

/** Template source: a few dozen tokens that mean something to Handlebars. */
export const templateSource = fc
  .array(fc.constantFrom(...TEMPLATE_TOKENS), { maxLength: 40 })
  .map((tokens) => tokens.join(""));

const FRONTMATTER_TOKENS = [
  ...["order", "tag", "base", "volatile", "enabled", "description", "models", "shrink", "name"],
  ...[":", ": ", " ", "  ", "\t", "\n", "- ", "&a ", "*a", "!!js/function ", "!!binary ", "<<"],
  ...["[", "]", "{", "}", "'", '"', "#", "|", ">", "1", "-1", "1e309", "0x10", "true", "null"],
  ...["~", "---", "...", "%YAML 1.2\n", "? ", ",", "__proto__", "constructor", "x", "é"],
];

/** A frontmatter block's inside: YAML-ish lines, often broken. */
export const frontmatterSource = fc
  .array(fc.constantFrom(...FRONTMATTER_TOKENS), { maxLength: 40 })
  .map((tokens) => tokens.join(""));

/** A whole section file: no frontmatter, a block (YAML, another language, unclosed), then a body. */
export const sectionFile = fc
  .tuple(
    fc.constantFrom("none", "---", "---js", "---json", "---yaml", "unclosed"),
    frontmatterSource,
    templateSource,
  )
  .map(([fence, front, body]) => {
    if (fence === "none") return body;
    if (fence === "unclosed") return `---\n${front}\n${body}`;
    return `${fence}\n${front}\n---\n${body}`;
  });

/** Text that looks like templates and Markdown, for values: never rendered again. */
export const valueText = fc
  .array(
    fc.constantFrom("{{x}}", "{{#if a}}", "```", "\n", "\n\n\n", "  ", "\t", "word", "é", "$1"),
    {
      maxLength: 12,
    },
  )
  .map((parts) => parts.join(""));

/** Template data with every field set from random text. */
export const promptData: fc.Arbitrary<PromptData> = fc.record({
  agentName: valueText,
  cwd: fc.constantFrom("/work/project", "/tmp/a b", "/p"),
  date: fc.constant("2026-01-15"),
  model: fc.option(valueText, { nil: null }),
  tools: fc.uniqueArray(fc.constantFrom("read", "bash", "edit", "write", "grep", "x{{y}}"), {
    maxLength: 6,
  }),
  toolSnippets: fc.array(fc.record({ name: valueText, description: valueText }), { maxLength: 3 }),
  rules: fc.array(valueText, { maxLength: 4 }),
  guidelines: fc.array(valueText, { maxLength: 2 }),
  environment: fc.array(fc.record({ label: valueText, value: valueText }), { maxLength: 3 }),
  contextFiles: fc.array(
    fc.record({
      path: valueText,
      content: valueText,
      origin: fc.constantFrom("user" as const, "project" as const),
    }),
    { maxLength: 3 },
  ),
  alwaysRules: fc.array(
    fc.record({
      name: valueText,
      source: valueText,
      path: valueText,
      content: valueText,
      origin: fc.constantFrom("user" as const, "project" as const),
    }),
    { maxLength: 1 },
  ),
  onDemandRules: fc.array(
    fc.record({
      name: valueText,
      source: valueText,
      path: valueText,
      activation: fc.constantFrom("glob", "model"),
      globs: fc.array(valueText, { maxLength: 2 }),
      globsText: valueText,
      description: fc.option(valueText, { nil: null }),
      origin: fc.constantFrom("user" as const, "project" as const),
    }),
    { maxLength: 1 },
  ),
  agentsMd: fc.array(valueText, { maxLength: 3 }),
  rootAgentsMd: fc.array(valueText, { maxLength: 2 }),
  agentsMdTruncated: fc.boolean(),
  agentsMdLeftOut: fc.nat(3),
  agentsMdOnTouch: fc.boolean(),
  agentLoads: fc.constantFrom([], ["CLAUDE.md"]),
  workspaceTree: fc.option(fc.record({ rendered: valueText, truncated: fc.boolean() }), {
    nil: null,
  }),
  rootTrees: fc.array(
    fc.record({ path: valueText, rendered: valueText, truncated: fc.boolean() }),
    { maxLength: 2 },
  ),
  roots: fc.array(valueText, { maxLength: 2 }),
  skills: fc.array(
    fc.record({
      name: valueText,
      description: valueText,
      location: valueText,
      origin: fc.constantFrom("user" as const, "project" as const),
    }),
    { maxLength: 3 },
  ),
  skillsTool: fc.constantFrom("read", "bash", null),
  appendPrompt: valueText,
  customPrompt: fc.constant(null),
  docs: fc.option(valueText, { nil: null }),
  git: fc.option(
    fc.record({
      branch: fc.option(valueText, { nil: null }),
      head: fc.option(fc.constant("0123456789ab"), { nil: null }),
      upstream: fc.option(
        fc.record({ name: valueText, ahead: fc.nat(5), behind: fc.nat(5), gone: fc.boolean() }),
        { nil: null },
      ),
      staged: fc.nat(9),
      unstaged: fc.nat(9),
      untracked: fc.nat(9),
      conflicted: fc.nat(9),
      truncated: fc.boolean(),
      commits: fc.array(valueText, { maxLength: 5 }),
    }),
    { nil: null },
  ),
  vars: fc.dictionary(fc.constantFrom("team", "ticket", "x_1"), valueText, { maxKeys: 3 }),
});
