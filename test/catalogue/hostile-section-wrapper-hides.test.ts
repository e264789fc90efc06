import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { pageWideReadings } from "./_page-wide.js";

// Review rev82f F2, F3, F5 (the page-tag change of rev80c F4-F8, read again).
// F2: a trusted project's override of YOUR section with `tag: template` (title, noscript, select,
// plaintext, …) printed your `{{> base}}` inside an element no reader shows, or whose text a reader
// reads as raw text, with no warning. F3: a trusted `.pi/SYSTEM.md` starting
// `<?xml version="1.0" encoding="iso-2022-kr"?>` made Chromium decode the whole prompt as one
// U+FFFD. F5: your own section's `<style>` printed through a project's `{{> base}}` was said to be
// escaped (`page-tag-escaped` at the project's file) though it was printed as written.

async function render(files: Record<string, string>, trusted = true) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": "MYRULE-NEVER push to main.\n",
    ...files,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: trusted }));
}

/** The page-tag warnings of a result, as `path:line tag`. */
function warned(result: {
  diagnostics: readonly { code: string; path?: string; message: string }[];
}) {
  return result.diagnostics
    .filter((d) => d.code === "page-tag-escaped")
    .map(
      (d) =>
        `${d.path?.split("/").slice(-2).join("/")}:${/\(line (\d+)/.exec(d.message)?.[1]} ${/its tag "(<[a-z?]+)/i.exec(d.message)?.[1]}`,
    );
}

const YOUR_SECTION = "---\norder: 45\n---\nMYSECTION-TEAM: always run tests.\n";

describe("hostile trusted project: no section of its is printed in an element no reader shows (rev82f F2)", () => {
  for (const tag of [
    "template",
    "title",
    "noscript",
    "select",
    "plaintext",
    "xmp",
    "textarea",
    "script",
    "iframe",
    "noembed",
    "noframes",
    "svg",
    "math",
    "details",
    "dialog",
    "TEMPLATE",
  ])
    it(`\`tag: ${tag}\` over your section around {{> base}}: printed as your <team-notes>, said`, async () => {
      const result = await render({
        "agent/sections/team-notes.md": YOUR_SECTION,
        "project/.pi/sections/team-notes.md": `---\ntag: ${tag}\n---\nPROJ-ADD\n{{> base}}\n`,
      });
      const section = result.sections.find((s) => s.name === "team-notes")?.text ?? "";
      expect(section).toContain("MYSECTION-TEAM: always run tests.");
      expect(section.startsWith("<team-notes>"), section).toBe(true);
      expect(result.text.toLowerCase()).not.toContain(`<${tag.toLowerCase()}>`);
      expect(result.diagnostics.map((d) => d.code)).toContain("section-tag-reserved");
    });

  it("a project's own section named template.md is <project_template>", async () => {
    const result = await render({
      "project/.pi/sections/template.md": "---\norder: 1\n---\nPROJ-WORDS\n",
    });
    expect(result.text).toContain("<project_template>\nPROJ-WORDS");
    expect(result.diagnostics.map((d) => d.code)).toContain("section-tag-reserved");
  });

  it("keeps an ordinary tag: `tag: div`, `tag: notes`, `tag: pre`", async () => {
    const result = await render({
      "project/.pi/sections/a.md": "---\norder: 1\ntag: div\n---\nA-WORDS\n",
      "project/.pi/sections/b.md": "---\norder: 2\ntag: notes\n---\nB-WORDS\n",
      "project/.pi/sections/c.md": "---\norder: 3\ntag: pre\n---\nC-WORDS\n",
    });
    expect(result.text).toContain("<div>\nA-WORDS");
    expect(result.text).toContain("<notes>\nB-WORDS");
    expect(result.text).toContain("<pre>\nC-WORDS");
    expect(result.diagnostics.map((d) => d.code)).not.toContain("section-tag-reserved");
  });
});

describe("hostile repository: no XML declaration of its re-decodes the page (rev82f F3)", () => {
  it("a trusted .pi/SYSTEM.md starting <?xml … encoding=…?>: written &lt;, said at line 1", async () => {
    const result = await render({
      "project/.pi/SYSTEM.md":
        '<?xml version="1.0" encoding="iso-2022-kr"?>\nYou are a helper. SYSTEXT\n',
    });
    expect(result.text.startsWith('&lt;?xml version="1.0" encoding="iso-2022-kr"?>')).toBe(true);
    expect(result.text).toContain("SYSTEXT");
    expect(warned(result)).toEqual([".pi/SYSTEM.md:1 <?xml"]);
  });

  it("any case, in an untrusted AGENTS.md's code block too", async () => {
    const result = await render(
      { "project/AGENTS.md": "# P\n\n```\n<?XML version='1.0' encoding='utf-7'?>\n```\n" },
      false,
    );
    expect(result.text).toContain("&lt;?XML version='1.0'");
    expect(result.text).not.toMatch(/<\?xml/i);
    expect(warned(result)).toEqual(["project/AGENTS.md:4 <?XML"]);
  });

  it("your own SYSTEM.md's <?xml stays as written", async () => {
    const result = await render({ "agent/SYSTEM.md": '<?xml version="1.0"?>\nMine.\n' });
    expect(result.text.startsWith('<?xml version="1.0"?>')).toBe(true);
    expect(warned(result)).toEqual([]);
  });
});

describe("the page-tag warning speaks only of what it escaped in the project's words (rev82f F5)", () => {
  for (const mine of [
    "`<style>p{}</style>` blocks",
    "`<link rel=icon href=x>` tags",
    "<body class=x> tags",
  ])
    it(`your section's ${mine} through the project's {{> base}}: as written, no warning`, async () => {
      const result = await render({
        "agent/sections/team-notes.md": `---\norder: 45\n---\nMYSECTION-TEAM: use ${mine}, never inline styles.\n`,
        "project/.pi/sections/team-notes.md": "PROJ-ADD\n{{> base}}\n",
      });
      expect(result.text).toContain(`MYSECTION-TEAM: use ${mine}, never inline styles.`);
      expect(warned(result)).toEqual([]);
    });

  it("the project's own page tag after your <style> is still written &lt; and said at its line", async () => {
    const result = await render({
      "agent/sections/team-notes.md":
        "---\norder: 45\n---\nMYSECTION-TEAM: use `<style>p{}</style>` blocks.\n",
      "project/.pi/sections/team-notes.md":
        "PROJ-ADD\n{{> base}}\nThen `<link rel=stylesheet href=x>` here.\n",
    });
    expect(result.text).toContain("MYSECTION-TEAM: use `<style>p{}</style>` blocks.");
    expect(result.text).toContain("Then `&lt;link rel=stylesheet href=x>` here.");
    expect(warned(result)).toEqual(["sections/team-notes.md:3 <link"]);
    // Your <style> is yours, kept; the project's <link> acts on nothing.
    expect(pageWideReadings(result.text).raw).toEqual(["style"]);
  });

  it("the project's own page tag before your text: said at line 1", async () => {
    const result = await render({
      "agent/sections/team-notes.md":
        "---\norder: 45\n---\nMYSECTION-TEAM: use `<style>p{}</style>` blocks.\n",
      "project/.pi/sections/team-notes.md": "<body hidden>\n{{> base}}\n",
    });
    expect(result.text).toContain("&lt;body hidden>");
    expect(result.text).toContain("MYSECTION-TEAM: use `<style>p{}</style>` blocks.");
    expect(warned(result)).toEqual(["sections/team-notes.md:1 <body"]);
  });
});
