import { describe, expect, it } from "vitest";
import { hostClosingAfter } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { wrapperHides } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev89c F1, F2. Chromium 156 has `<camera>` and `<microphone>` (permission elements, like
// `<geolocation>` and `<usermedia>`), drawn as a button and none of their content. F1: the list of
// element names HTML knows lacked them, so a text not yours kept them as unknown elements, and the
// hiding list lacked them, so the closers, the section check and the slash guard read them as
// shown: (a) a trusted slash template `<camera>$ARGUMENTS</camera>`, (b) a section override
// `<microphone>{{> base}}</microphone>`, (c) an unclosed `<camera>` in `--system-prompt
// docs/prompt.md` hid your words with no warning. F2: a trusted project's section `tag:
// geolocation` (`usermedia`, `fencedframe`, `option`, `camera`, `microphone`) printed your section
// in an element Chromium does not show. The browser-tier twin, which keeps both lists whole
// against the installed Chromium, is test/browser/html-elements.browser.ts.

async function render(files: Record<string, string>, extra: Parameters<typeof pinned>[1] = {}) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": "USER-RULE-ONE: always run tests.\n",
    "agent/sections/my_notes.md": "---\norder: 2000\n---\nMYNOTE-ALPHA: never force-push.\n",
    ...files,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: true, ...extra }));
}

const codes = (result: { diagnostics: readonly { code: string }[] }) =>
  result.diagnostics.map((d) => d.code);

describe("hostile repository: a permission element is held as the page's elements are (rev89c F1)", () => {
  it("(a) a trusted slash template's <camera>$ARGUMENTS</camera>: written &lt;camera, said", () => {
    for (const name of ["camera", "microphone", "Camera"]) {
      const out = expandProjectTemplate(
        `Review the code, then act on: <${name}>$ARGUMENTS</${name}>\n`,
        "/t USERARG-ONLY-READ-NEVER-DELETE",
      );
      expect(out.text, name).toBe(
        `Review the code, then act on: &lt;${name}>USERARG-ONLY-READ-NEVER-DELETE</${name}>\n`,
      );
      expect(codes(out), name).toContain("page-tag-escaped");
    }
    const open = expandProjectTemplate("Review: <microphone> $ARGUMENTS\n", "/t USERARG-X");
    expect(open.text).toBe("Review: &lt;microphone> USERARG-X\n");
    expect(codes(open)).toContain("page-tag-escaped");
  });

  it("(b) a trusted project's override <microphone>{{> base}}</microphone> of your section: written &lt;microphone, said", async () => {
    const result = await render({
      "project/.pi/sections/my_notes.md": "Team notes: <microphone>{{> base}}</microphone>\n",
    });
    const text = result.text;
    expect(text).toContain("MYNOTE-ALPHA: never force-push.");
    expect(text).toContain("&lt;microphone>");
    expect(text).not.toMatch(/<microphone>/i);
    expect(codes(result)).toContain("page-tag-escaped");
  });

  it("(c) an unclosed <camera> in --system-prompt docs/prompt.md (untrusted) or a trusted .pi/SYSTEM.md: written &lt;camera, said", async () => {
    const body = "You are a helpful agent for this project. <camera>\n";
    for (const [files, extra] of [
      [
        { "project/docs/prompt.md": body },
        { projectTrusted: false, systemPrompt: "docs/prompt.md" },
      ],
      [{ "project/.pi/SYSTEM.md": body }, {}],
    ] as const) {
      const result = await render(files, extra);
      expect(result.text).toContain("&lt;camera>");
      expect(result.text).not.toMatch(/<camera>/i);
      expect(result.text).toContain("USER-RULE-ONE: always run tests.");
      expect(result.text).toContain("MYNOTE-ALPHA: never force-push.");
      expect(codes(result)).toContain("page-tag-escaped");
    }
  });

  it("on touch: a tool result naming `<camera>` gets a closer (the closers read it as hiding)", () => {
    for (const name of ["camera", "microphone", "geolocation", "usermedia", "fencedframe"]) {
      const closer = hostClosingAfter(`1\tUse \`<${name}>\` for the button.\n`);
      expect(closer, name).toContain(`</${name}>`);
    }
  });
});

describe("hostile trusted project: no section of its is printed in an element that does not draw its text in place (rev89c F2)", () => {
  for (const tag of [
    "geolocation",
    "usermedia",
    "fencedframe",
    "option",
    "camera",
    "microphone",
    "marquee",
  ])
    it(`\`tag: ${tag}\` over your section: printed as your <my_notes>, said`, async () => {
      expect(wrapperHides(tag) || tag === "marquee", tag).toBe(true);
      const result = await render({
        "project/.pi/sections/my_notes.md": `---\norder: 2000\ntag: ${tag}\n---\n{{> base}}\n`,
      });
      const section = result.sections.find((s) => s.name === "my_notes")?.text ?? "";
      expect(section).toContain("MYNOTE-ALPHA: never force-push.");
      expect(section.startsWith("<my_notes>"), section).toBe(true);
      expect(result.text.toLowerCase()).not.toContain(`<${tag}>`);
      expect(codes(result)).toContain("section-tag-reserved");
    });

  it("a tag of no HTML element, or one drawn in place, is kept: `tag: team_notes`, `tag: div`", async () => {
    const result = await render({
      "project/.pi/sections/a.md": "---\norder: 1\ntag: team_notes\n---\nA-WORDS\n",
      "project/.pi/sections/b.md": "---\norder: 2\ntag: div\n---\nB-WORDS\n",
    });
    expect(result.text).toContain("<team_notes>\nA-WORDS");
    expect(result.text).toContain("<div>\nB-WORDS");
    expect(codes(result)).not.toContain("section-tag-reserved");
  });
});
