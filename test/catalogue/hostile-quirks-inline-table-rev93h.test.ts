import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HtmlRenderer, Parser } from "commonmark";
import { type DefaultTreeAdapterMap, parse } from "parse5";
import { describe, expect, it } from "vitest";
import type { TouchedFile } from "../../src/gather/context/index.js";
import { renderSystemPrompt } from "../../src/index.js";
import { appendTouched } from "../../src/integrations/pi/on-touch.js";
import { tablesOutOfParagraphs } from "../../src/sections/html-reading.js";
import { expandSkillCommand } from "../../src/skills/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { skillAt } from "../skills/_helpers.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev93h F2 (medium): a Markdown link or emphasis around a `<table>` in a repository's text
// (`Build [fast <table> now](https://x/) ok.`, `*a <table> b*`, `**…**`) stayed open over everything
// after it for an HTML parser reading the rendered prompt as a page in quirks mode (no doctype: a
// browser opening `markdown-it prompt.md > prompt.html`, or cmark's output): there `<table>` does not
// close the renderer's `<p>`, so the table opens inside the renderer's own `<a>`/`<em>`/`<strong>`,
// whose end tag then comes in table mode and is ignored. Our checks read a fragment (no-quirks), and
// the renderer's own inline elements are not in the Markdown view, so no closer ended them. Now a
// `<table` a paragraph of a text not yours holds inline has a `</p>` written before it
// (`tablesOutOfParagraphs`, rev97a F1; it was written `&lt;`):
// each reading below, quirks (no doctype) and no-quirks, shows the words after it.
//
// markdown-it is no dependency; CommonMark's renderer writes the same `<p><a href>…<table>…</a>` here.

type Node = DefaultTreeAdapterMap["node"];

const PARAS = [
  "Build [fast <table> now](https://x/) ok.",
  "Build *a <table> b* ok.",
  "Build **a <TABLE border=1> b** ok.",
  "Build _a <table>\nb_ ok.",
  "> See [docs <table> here](https://evil.example/) first.",
  "Build *a **b *c <table> d* e** f* ok.",
];

/** Elements that hold the words after them when left open (the renderer's inline ones, and a table). */
const HOLDERS = new Set(["a", "em", "strong", "s", "del", "table"]);

/** The holding elements around `marker`'s text node, parsing `html` as a page with and without a doctype. */
function holdersAround(html: string, marker: string): Record<string, string[] | undefined> {
  const around = (page: string) => {
    let found: string[] | undefined;
    const walk = (node: Node, path: string[]) => {
      if (found !== undefined) return;
      if (node.nodeName === "#text") {
        if ((node as DefaultTreeAdapterMap["textNode"]).value.includes(marker)) found = path;
        return;
      }
      const tag = "tagName" in node ? node.tagName : undefined;
      const next = tag !== undefined && HOLDERS.has(tag) ? [...path, tag] : path;
      for (const child of "childNodes" in node ? (node.childNodes as Node[]) : [])
        walk(child, next);
    };
    walk(parse(page), []);
    return found;
  };
  return { quirks: around(html), "no-quirks": around(`<!DOCTYPE html>${html}`) };
}

const commonmark = (md: string) => new HtmlRenderer().render(new Parser().parse(md));

function expectShown(out: string, marker: string, what: string) {
  expect(holdersAround(commonmark(out), marker), `${what}\n->\n${out}`).toEqual({
    quirks: [],
    "no-quirks": [],
  });
}

/** An untrusted `AGENTS.md` of `paras`, rendered: the words after it are shown, a `</p>` before each `<table`. */
async function expectRenderShown(paras: readonly string[]) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": `# Build notes\n\n${paras.join("\n\n")}\n`,
  });
  const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
  expect(result.text).toContain("Build notes");
  expectShown(`${result.text}\n\nQzAfterWords\n`, "QzAfterWords", paras.join("\n\n"));
  // The first: its table is left open (no `</table>`), and each later `<table>` closes the one before
  // it, with no `<p>` open in either mode. The block quote's text falls back to text (rev78e F2):
  // its `<` as written, no `</p>` it never had (rev101b F2).
  expect(result.text).toMatch(/<\/p><table|&lt;table/);
  expect(result.text).not.toContain("&lt;/p>");
}

describe("hostile repository: a `<table>` inside a Markdown link or emphasis holds nothing of yours in quirks mode (rev93h F2)", () => {
  it("a context file (untrusted AGENTS.md): your words after it are shown", async () => {
    // One render reads them all: each paragraph's element is opened again in the next. The block
    // quote's is asked alone: a `<table>` keeping a quote open makes the whole text fall back (rev78e F2).
    for (const paras of [
      PARAS.filter((p) => !p.startsWith(">")),
      PARAS.filter((p) => p.startsWith(">")),
    ])
      await expectRenderShown(paras);
  });

  it("a trusted project's always rule: your words after it are shown", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.cursor/rules/r.mdc": `---\nalwaysApply: true\n---\n${PARAS[0]}\n`,
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    expect(result.text).toContain("Build [fast </p><table> now]");
    expectShown(`${result.text}\n\nQzAfterWords\n`, "QzAfterWords", "rule");
  });

  it("a slash template not yours: your typed words are shown", () => {
    for (const para of PARAS) {
      const content = `${para}\n\nReview: $ARGUMENTS\n`;
      const out = expandProjectTemplate(content, "/t QzTypedWords please");
      expect(out.text).toContain("QzTypedWords please");
      expectShown(out.text, "QzTypedWords", para);
    }
    // A default's `<table` and your own typed `<table>` (yours, as you typed it).
    const out = expandProjectTemplate(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: `${2:-…}` is the slash template's placeholder.
      "See [docs ${2:-<table>} here](https://x/) first: $1\n\nReview: $1\n",
      "/t QzTypedWords",
    );
    expectShown(out.text, "QzTypedWords", "default");
    const typed = expandProjectTemplate("Review: $ARGUMENTS\n", "/t a <table> b");
    expect(typed.text).toContain("a <table> b");
  });

  it("a project skill's body expanded by /skill: your request is shown", () => {
    for (const para of PARAS) {
      const t = tempDir();
      const folder = join(t, "repo", ".pi", "skills", "lint");
      mkdirSync(folder, { recursive: true });
      const file = join(folder, "SKILL.md");
      writeFileSync(file, `---\nname: lint\ndescription: lint\n---\n${para}\n`);
      const out = expandSkillCommand(
        "/skill:lint QzRequestWords",
        [skillAt(file, "lint", "lint", "project")],
        { cwd: join(t, "repo"), home: join(t, "home") },
      );
      expectShown(out ?? "", "QzRequestWords", para);
    }
  });

  it("pi's tool result: your glob rule appended after it is shown", () => {
    const files: TouchedFile[] = [
      {
        path: "/h/.pi/agent/rules/g.md",
        content: "QzGlobRule: never touch prod.",
        kind: "rule",
        name: "g",
      },
    ];
    // A block quote a `<table>` keeps open gets no closer on a host's result: nothing follows it
    // (rev78e F2), so it is not asked here.
    for (const para of PARAS.filter((p) => !p.startsWith(">"))) {
      const patch = appendTouched(
        { content: [{ type: "text", text: `# notes.md\n\n${para}\n` }] },
        files,
        "/p",
        () => {},
      );
      const joined = (patch?.content ?? [])
        .flatMap((c) => (c.type === "text" ? [c.text] : []))
        .join("\n");
      expect(joined, para).toContain("QzGlobRule");
      expectShown(joined, "QzGlobRule", para);
    }
  });

  it("a table as a block, in a code span or fence, is left as written", () => {
    const kept = [
      "<table>\n<tr><td>x</td></tr>\n</table>\n",
      "Use `<table>` for data.\n",
      "```html\nx <table> y\n```\n",
      "Say \\<table> here.\n",
      "Text\n<table>\n<tr><td>x</td></tr>\n</table>\n",
    ];
    for (const text of kept) expect(tablesOutOfParagraphs(text), text).toBe(text);
    expect(tablesOutOfParagraphs("A [b <table> c](d) e.\n")).toBe("A [b </p><table> c](d) e.\n");
  });
});
