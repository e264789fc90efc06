import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HtmlRenderer, Parser } from "commonmark";
import { type DefaultTreeAdapterMap, parse } from "parse5";
import { describe, expect, it } from "vitest";
import type { TouchedFile } from "../../src/gather/context/index.js";
import { renderSystemPrompt } from "../../src/index.js";
import { appendTouched } from "../../src/integrations/pi/on-touch.js";
import { expandSkillCommand } from "../../src/skills/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { skillAt } from "../skills/_helpers.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev92c F1 (high): markdown-it 15 keeps one flag per paragraph (`skipHtmlSpecial`): once a
// `<?`, `<!--`, `<![CDATA[` or `<!X` finds no end in the paragraph, every later one of that
// paragraph is text (`&lt;!--`), while the tags between stay raw. `Run make <? then see <!--
// <details> --> here.` is a complete comment for CommonMark, but an open `<details>` for markdown-it
// (VS Code's preview): your always rule, skills and working directory (a context file), your typed
// words (a slash template), your request (a `/skill:` body) and your glob rule (pi's tool result)
// were inside it. The Markdown reading the closers go by (`markdownAsHtml`) now reads as markdown-it
// does there too: the tags inside are markup, closed after the text.
//
// markdown-it is no dependency: its reading is encoded here. It is CommonMark's with each later
// special of such a paragraph written as text (`&lt;`), which is what each case's `later` is.

type Node = DefaultTreeAdapterMap["node"];

const CASES = [
  { para: "Run make <? then see <!-- <details> --> here.", later: "<!--" },
  { para: "Run make <? then see <!-- <s><code> --> here.", later: "<!--" },
  { para: "Build it <![CDATA[ then <!-- <details> --> now.", later: "<!--" },
  { para: "Open <!-- never ended, then <?php <details> ?> here.", later: "<?php" },
];

const HIDERS = new Set(["details", "s", "code", "pre", "del", "template"]);

/** The hiding elements around `marker`'s text node (parse5 over `html`); undefined when absent. */
function hidersAround(html: string, marker: string): string[] | undefined {
  let found: string[] | undefined;
  const walk = (node: Node, path: string[]) => {
    if (found !== undefined) return;
    if (node.nodeName === "#text") {
      if ((node as DefaultTreeAdapterMap["textNode"]).value.includes(marker)) found = path;
      return;
    }
    const tag = "tagName" in node ? node.tagName : undefined;
    const next = tag !== undefined && HIDERS.has(tag) ? [...path, tag] : path;
    const kids =
      "content" in node && node.nodeName === "template"
        ? (node.content as unknown as { childNodes: Node[] }).childNodes
        : "childNodes" in node
          ? (node.childNodes as Node[])
          : [];
    for (const child of kids) walk(child, next);
  };
  walk(parse(html), []);
  return found;
}

const commonmark = (md: string) => new HtmlRenderer().render(new Parser().parse(md));

/** Where `marker` lands for CommonMark and for markdown-it (each case's later special written as text). */
function readings(out: string, marker: string): Record<string, string[] | undefined> {
  let mdIt = out;
  for (const { para, later } of CASES) {
    const at = para.indexOf(later);
    mdIt = mdIt.replaceAll(para, `${para.slice(0, at)}&lt;${para.slice(at + 1)}`);
  }
  return {
    commonmark: hidersAround(commonmark(out), marker),
    "markdown-it": hidersAround(commonmark(mdIt), marker),
  };
}

function expectShown(out: string, marker: string, para: string) {
  const where = readings(out, marker);
  expect(where, `${para}\n->\n${out}`).toEqual({ commonmark: [], "markdown-it": [] });
}

describe("hostile repository: a paragraph's later comment after an unended `<?` hides nothing of yours in markdown-it (rev92c F1)", () => {
  it("a context file (untrusted AGENTS.md): your words after it are shown", async () => {
    // One paragraph each: each has its own flag, and one render reads them all.
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": `# Build notes\n\n${CASES.map((c) => c.para).join("\n\n")}\n`,
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.text).toContain(CASES[0]?.para);
    expectShown(`${result.text}\n\nQzAfterWords\n`, "QzAfterWords", "AGENTS.md");
  });

  it("a slash template not yours: your typed words are shown", () => {
    // A trusted project's `<s>` or `<code>` around your words is framing it may write (docs/trust.md).
    for (const { para } of CASES.filter((c) => c.para.includes("<details>"))) {
      const content = `Review this: ${para}\n\n$ARGUMENTS\n`;
      const out = expandProjectTemplate(content, "/t QzTypedWords please");
      expectShown(out.text, "QzTypedWords", para);
    }
  });

  it("a project skill's body expanded by /skill: your request is shown", () => {
    for (const { para } of CASES) {
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
    for (const { para } of CASES) {
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

  it("a paragraph whose specials all end is printed as written, with no closer", async () => {
    const root = tempDir();
    const para = "See <!-- a note --> and <?php echo 1 ?> here.";
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": `# Build notes\n\n${para}\n`,
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.text).toContain(`${para}\n\n</repository_instructions>`);
  });
});
