import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "parse5";
import { describe, expect, it } from "vitest";
import type { TouchedFile } from "../../src/gather/context/index.js";
import { renderSystemPrompt } from "../../src/index.js";
import { appendTouched } from "../../src/integrations/pi/on-touch.js";
import { quirksTableStarts, tablesOutOfParagraphs } from "../../src/sections/html-reading.js";
import { expandSkillCommand } from "../../src/skills/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { skillAt } from "../skills/_helpers.js";
import { commonmarkHtml as commonmark, pathsAround } from "./_commonmark.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev97a F1 (medium): a repository text's own `<p>` around a `<table>`
// (`<p>See the table: <table><tr><td>y</td></tr></table>`, an HTML block) left the prompt's element
// around the text open for an HTML parser reading the rendered prompt as a page in quirks mode (no
// doctype). Our checks read a fragment (no-quirks), where the table closes that `<p>`; in quirks mode
// it does not, and since `<p>` is special the end tag of the prompt's element (`</rule>`, a project
// section's tag, `</skill>`, `</instructions>`) is ignored: that element held everything after it.
// rev93h F2 (fx96a) escaped only a `<table` inline in a Markdown paragraph. Now a `</p>` is written
// before every `<table` start tag met while a `<p>` is open (`tablesOutOfParagraphs`), and a host's
// result that holds one is followed by a `</p>` (`hostClosingAfter`): both modes build one tree.

const RAW_P = "<p>See the table: <table><tr><td>y</td></tr></table>";

/** `marker` (words not the repository's) reads the same in both modes, in no element `theirs` names. */
function expectYoursApart(markdown: string, marker: string, theirs: readonly string[]) {
  const paths = pathsAround(commonmark(markdown), marker);
  expect(paths.quirks, markdown).toBeDefined();
  expect(paths.quirks, markdown).toBe(paths.noQuirks);
  for (const name of theirs) expect(paths.quirks?.split(">"), markdown).not.toContain(name);
}

describe("hostile repository: a text's own `<p>` around a `<table>` holds nothing of yours in quirks mode (rev97a F1)", () => {
  it("an untrusted always rule (.cursor/rules/r.mdc): the working directory after it is apart", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.cursor/rules/r.mdc": `---\nalwaysApply: true\n---\n${RAW_P}\n`,
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.text).toContain('<rule name="r"');
    expectYoursApart(result.text, "Current working directory", ["rule", "p"]);
  });

  it("a trusted project's section: your own section after it is apart", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/sections/notes.md": `---\norder: 50\n---\nBuild notes.\n\n${RAW_P}\n`,
      "agent/sections/mine.md": "---\norder: 60\n---\nQzUserSection: never push to main.\n",
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    expect(result.text).toContain("<notes>");
    expectYoursApart(result.text, "QzUserSection", ["notes", "p"]);
  });

  it("a trusted project's SYSTEM.md: your APPEND_SYSTEM.md after it is apart", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/SYSTEM.md": `You are a helper.\n\n${RAW_P}\n`,
      "agent/APPEND_SYSTEM.md": "QzAddendum: never push to main.\n",
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    expect(result.text).toContain("QzAddendum");
    expectYoursApart(result.text, "QzAddendum", ["p"]);
  });

  it("a project skill's body expanded by /skill: your request is apart", () => {
    const t = tempDir();
    const folder = join(t, "repo", ".pi", "skills", "lint");
    mkdirSync(folder, { recursive: true });
    const file = join(folder, "SKILL.md");
    writeFileSync(file, `---\nname: lint\ndescription: lint\n---\nLint it.\n\n${RAW_P}\n`);
    const out = expandSkillCommand(
      "/skill:lint QzRequestWords please",
      [skillAt(file, "lint", "lint", "project")],
      { cwd: join(t, "repo"), home: join(t, "home") },
    );
    expectYoursApart(out ?? "", "QzRequestWords", ["skill"]);
  });

  it("a slash template not yours: your typed words are apart", () => {
    const out = expandProjectTemplate(`${RAW_P}\nReview: $ARGUMENTS\n`, "/t QzTypedWords please");
    expect(out.text).toContain("QzTypedWords please");
    expectYoursApart(out.text, "QzTypedWords", ["table"]);
  });

  it("pi's files on touch: your glob rule after a project's AGENTS.md is apart", () => {
    const files: TouchedFile[] = [
      { path: "/p/sub/AGENTS.md", content: RAW_P, kind: "context", name: "AGENTS.md" },
      {
        path: "/h/.pi/agent/rules/g.md",
        content: "QzGlobRule: never touch prod.",
        kind: "rule",
        name: "g",
      },
    ];
    for (const result of ["file contents here", `# notes.md\n\n${RAW_P}\n`]) {
      const patch = appendTouched(
        { content: [{ type: "text", text: result }] },
        files,
        "/p",
        () => {},
      );
      const joined = (patch?.content ?? [])
        .flatMap((c) => (c.type === "text" ? [c.text] : []))
        .join("\n");
      expect(joined, result).toContain("QzGlobRule");
      expectYoursApart(joined, "QzGlobRule", ["p"]);
    }
  });

  it("reads the tree: a table with no `<p>` open is left as written; one in a `<p>` inside a link gets a `</p>`", () => {
    const kept = [
      "<table>\n<tr><td>x</td></tr>\n</table>\n",
      "<p>x</p><table><tr><td>y</td></tr></table>\n",
      "<div><p>x</div><table></table>\n",
      "<p><button><table></table></button>\n",
      "Use `<p><table>` for data.\n",
      "```html\n<p>x <table> y\n```\n",
      "<table><tr><td><table></table></td></tr></table>\n",
    ];
    for (const text of kept) expect(tablesOutOfParagraphs(text), text).toBe(text);
    // In a link or emphasis the text opened, or in a cell's own `<p>`.
    for (const text of [
      "<p><a href='x'>go <table><tr><td>y</td></tr></table> on</a>\n",
      "<p><em>go <table title='<!--'></table>\n",
      "<table><tr><td><p>x<table></table></td></tr></table>\n",
      "<p><svg><table></table>\n",
      "Words\n\n<p>See:\n\n<table>\n<tr><td>y</td></tr>\n</table>\n",
    ]) {
      expect(quirksTableStarts(text).length, text).toBe(1);
      const out = tablesOutOfParagraphs(text);
      expect(out, text).toContain("</p><table");
      const html = `${commonmark(out)}<div>QzAfter</div>`;
      const page = (doctype: string) =>
        JSON.stringify(parse(`${doctype}${html}`), (k, v) => (k === "parentNode" ? undefined : v));
      expect(page(""), text).toBe(
        page("<!DOCTYPE html>")
          .replace('"mode":"no-quirks"', '"mode":"quirks"')
          .replace(/\{"nodeName":"#documentType"[^}]*\},?/, ""),
      );
    }
  });
});
