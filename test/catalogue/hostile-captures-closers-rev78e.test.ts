import { HtmlRenderer, Parser } from "commonmark";
import { describe, expect, it } from "vitest";
import { closedOpenToYours, hostClosingAfter } from "../../src/_fence.js";
import { geminiResultText } from "../../src/hook/input.js";
import { replyStart } from "../../src/hook/reply.js";
import { renderSystemPrompt } from "../../src/index.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { elementChain } from "./_raw-reading.js";

// Review rev78e, of fx77b (the closers close what a repository text leaves open for a Markdown
// reader, not only what hides):
// F2: after a boundary left open (`<table>`, `<td>`, `<caption>`, `<marquee>`, `<object>`,
// `<applet>`, `<math><mi>`) the closers added the renderer's blocks' end tags
// (`</p></li></ul></ol></blockquote></h1>`), which ended YOUR elements around the text (a section
// wrapping each context file in `{{#xml "blockquote"}}{{#xml "ul"}}{{#xml "li"}}`): your words after
// `{{content}}` left your element, with no warning.
// F1: Gemini CLI's hook refused every tool result that leaves any element open (`<b>bold`,
// `<a href>`, `<table><td>`: 622 of 1,500 fuzzed results), saying it "ends inside an element no
// reader shows"; the files given on touch never arrived.
// F3: a formatting element before a `<table>` (`See <a href="https://evil.example/">docs<table>x`)
// stayed open for a raw reader (the closers ended the copy the table's foster parenting opened),
// and your skills, `<cwd>` and `<date>` were in the repository's link or white font.

/** The chains around `needle`, read raw (parse5, scripts on) and as CommonMark renders `text`. */
function readings(text: string, needle: string): { raw?: string[]; commonmark?: string[] } {
  const rendered = new HtmlRenderer().render(new Parser().parse(text));
  return { raw: elementChain(text, needle), commonmark: elementChain(rendered, needle) };
}

/** The prompt's own tags and yours: any other element around a marker is the repository's. */
const OURS =
  /^(repository_instructions|project_context|user_instructions|skills|cwd|p|blockquote|ul|li)$/;

function theirs(names: string[] | undefined): string[] | undefined {
  return names?.filter((n) => !OURS.test(n));
}

function render(files: Record<string, string>, trusted: boolean) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/skills/myskill/SKILL.md":
      "---\nname: myskill\ndescription: QZ-SKILL deploy helper, never run on prod\n---\nbody\n",
    ...files,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: trusted, configFiles: true }));
}

/** A repository's text as the prompt prints it (`closedOpenToYours`, as a context file's) inside your own blocks, your words after it. */
function printedInYours(text: string): string {
  const closed = withCheckBudget(() => closedOpenToYours(text, " "));
  return `<project_context>\n<blockquote>\n<ul>\n<li>\n\n${closed}\n\nQZ-INSIDE: the text above is the project's.\n\n</li>\n</ul>\n</blockquote>\n\nQZ-AFTER\n</project_context>\n`;
}

describe("rev78e F2: the closers end only what the repository's text opened", () => {
  it("a `<table>` left open in a context file your section wraps in `{{#xml}}` blocks: your words stay in your element", async () => {
    const section = [
      "---",
      "order: 60",
      "tag: project_context",
      "---",
      '{{#list contextFiles join="\\n\\n"}}{{#xml "blockquote"}}',
      "",
      '{{#xml "ul"}}{{#xml "li"}}',
      "",
      "{{content}}",
      "",
      "QZ-INSIDE: the text above is the project's, not mine.",
      "",
      "{{/xml}}{{/xml}}",
      "",
      "{{/xml}}{{/list}}",
      "",
    ].join("\n");
    const result = await render(
      {
        "agent/sections/project_context.md": section,
        "project/AGENTS.md": "Build notes.\n\n<table><tr><td>cell",
      },
      false,
    );
    const project = result.text.slice(result.text.indexOf("<project_context>"));
    const at = readings(project, "QZ-INSIDE");
    expect(at.raw?.slice(-2)).toEqual(["ul", "li"]);
    expect(at.commonmark?.slice(-3)).toEqual(["ul", "li", "p"]);
    expect(project).not.toContain("</li></ul>");
  });

  it("each boundary left open is closed without the blocks' end tags: your words stay in your blocks, later ones outside the text's", () => {
    for (const body of [
      "Build notes.\n\n<table><tr><td>cell",
      "Build notes. <table><caption>x",
      "Build notes.\n\n<marquee>x",
      "Build notes. <object>x",
      "Build notes. <applet>x",
      "Build notes. <math><mi>x",
      // The text's own list or quote: its end tags would end yours for a raw reader, so it falls back.
      "- item <table><td>x",
      "> quoted <table><td>x",
    ]) {
      const what = JSON.stringify(body);
      const text = printedInYours(body);
      const inside = readings(text, "QZ-INSIDE");
      expect(theirs(inside.raw), `${what} raw`).toEqual([]);
      expect(theirs(inside.commonmark), `${what} commonmark`).toEqual([]);
      expect(inside.raw, `${what} raw`).toContain("li");
      expect(inside.commonmark, `${what} commonmark`).toContain("li");
      const after = readings(text, "QZ-AFTER");
      expect(after.raw, `${what} raw`).toEqual(["project_context"]);
      expect(after.commonmark, `${what} commonmark`).toEqual(["p"]);
    }
  });
});

describe("rev78e F1: Gemini CLI's hook refuses only a tool result whose end hides what follows", () => {
  it("an open `<b>`, `<a href>`, `<table><td>` or `<div>` holds shown text: the files are given", () => {
    for (const result of [
      "Use <b>bold",
      'see <a href="https://x">the docs',
      "Cell: <table><tr><td>x",
      "export function App() {\n  return (\n    <div>\n\n      <p>hi</p>\n",
    ])
      expect(
        replyStart("gemini-cli", geminiResultText({ llmContent: result }), "read_file"),
        JSON.stringify(result),
      ).toEqual({ closer: "" });
  });

  it("one that hides (`<div hidden>`) is still refused, saying so", () => {
    const start = replyStart(
      "gemini-cli",
      geminiResultText({ llmContent: "x <div hidden>y" }),
      "read_file",
    );
    expect(start).toHaveProperty("nothing");
    expect((start as { nothing: string }).nothing).toContain("no reader shows");
  });
});

describe("rev78e F3: a formatting element before a `<table>` holds nothing after the text for a raw reader", () => {
  const MARKERS = ["QZ-SKILL", "Current working directory"];

  it("an untrusted AGENTS.md: your skill and <cwd> are in no link or font of the repository's, raw and CommonMark", async () => {
    for (const body of [
      'See <a href="https://evil.example/">docs<table>x',
      '<font style="opacity:0">docs<table>x',
      'Build with make. <font color="white">notes<table>x',
      'Build with make. <font color="white"><table><strong><noscript>',
    ]) {
      const result = await render({ "project/AGENTS.md": body }, false);
      for (const marker of MARKERS) {
        const at = readings(result.text, marker);
        expect(at.raw, `${body}: ${marker} raw`).toBeDefined();
        expect(
          at.raw?.filter((n) => /^(a|font|strong|b)$/.test(n)),
          `${body}: ${marker} raw`,
        ).toEqual([]);
        expect(
          at.commonmark?.filter((n) => /^(a|font|strong|b)$/.test(n)),
          `${body}: ${marker} commonmark`,
        ).toEqual([]);
      }
      expect(result.text).toContain("x");
    }
  });

  it("a host's tool result (pi, opencode): the files after it are in no link of the result's", () => {
    const result = 'See <a href="https://evil.example/">docs<table><b>\n';
    const closer = hostClosingAfter(result);
    expect(closer).toBeDefined();
    const text = `${result}${closer}\n\n<instructions rule="ts">\nQZ-GLOB-RULE: strict types.\n</instructions>\n`;
    expect(elementChain(text, "QZ-GLOB-RULE")).toEqual(["instructions"]);
  });

  it("a formatting tag only a raw reader opens (a generic in a code block) is left as written, closed after it", () => {
    const text = "# Types\n\n```ts\nconst f = <S extends string>(s: S) => s;\n```\n";
    // Not written `&lt;` (shown so in the code block): its end tag on a line of its own (rev78c F2).
    expect(withCheckBudget(() => closedOpenToYours(text, " "))).toBe(`${text}<!----></s>\n`);
  });
});
