import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPromptSession, renderSystemPrompt } from "../../src/index.js";
import { formatTouched } from "../../src/touch/format.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { expandProjectTemplate } from "./_expand-project.js";
import { pageWideReadings } from "./_page-wide.js";

// Review rev80c F4-F8. Every check of the prompt reads a text as an HTML FRAGMENT, where
// `<body>`, `<html>`, `<frameset>` start tags are ignored and a closed `<style>` hides nothing
// around it; a browser or a document parser reads the prompt as a DOCUMENT, where those tags act
// on the whole page: `<body hidden>` anywhere hid the whole prompt (F4), a `<style>` block, a
// `data:` stylesheet `<link>` or `<svg><style>` restyled all of it (F5), a declarative shadow
// root's `<template shadowrootmode>` un-drew its parent's other content (F6), `<frameset>` first
// dropped the rest (F7), a `<meta charset>` in the first KiB decoded it as one character (F8).
// Now the `<` of such a start tag in a text not yours is written `&lt;` wherever it stands (code
// span, code block, markup), with one `page-tag-escaped` warning naming the file and line.

async function render(files: Record<string, string>, trusted: boolean) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": "MYRULE-NEVER push to main.\n",
    ...files,
  });
  return { root, result: await renderSystemPrompt(pinned(root, { projectTrusted: trusted })) };
}

/** The page-tag warnings of a result, as `path:line`. */
function warned(result: {
  diagnostics: readonly { code: string; path?: string; message: string }[];
}) {
  return result.diagnostics
    .filter((d) => d.code === "page-tag-escaped")
    .map((d) => `${d.path?.split("/").slice(-2).join("/")}:${/\(line (\d+)/.exec(d.message)?.[1]}`);
}

function expectNothingPageWide(text: string, name: string) {
  const read = pageWideReadings(text);
  expect(read.raw, `${name}: raw`).toEqual([]);
  expect(read.commonmark, `${name}: CommonMark`).toEqual([]);
}

describe("hostile repository: no start tag of its acts on the whole page (rev80c F4-F8)", () => {
  for (const [name, line] of [
    ["F4 a code span `<body hidden>`", "Use `<body hidden>` for a splash screen."],
    ["F4 an HTML block <body style>", '<body style="display:none">'],
    ["F4 inline <html hidden>", "Run x <html hidden> y"],
    ["F4 <body text=white bgcolor=white>", "<BODY text=white bgcolor=white>"],
    ["F5 a <style> block", "<style>\n*{display:none}\n</style>"],
    [
      "F5 a data: stylesheet link in a code span",
      'Styles: `<link rel="stylesheet" href="data:text/css,*{display:none}">` here.',
    ],
    ["F5 <svg><style> in markup", "Icons: <svg><style>*{visibility:hidden}</style></svg> done."],
    [
      "F6 a shadow root in a code span",
      'Web components: `<template shadowrootmode="open"></template>`.',
    ],
    ["F6 a shadow root in markup", 'Components: <template shadowrootmode="open"></template> ok'],
  ] as const)
    it(`an untrusted AGENTS.md with ${name}: nothing acts on the page; said at its line`, async () => {
      const { result } = await render(
        {
          "agent/sections/team-notes.md":
            "---\norder: 95\n---\nTEAM-RULE-BEFORE.\n\n{{#each contextFiles}}\nFrom {{path}}: {{content}} QZ-NEVER push to main.\n\n{{/each}}\nTEAM-RULE-AFTER.\n",
          "project/AGENTS.md": `# Project\n\n${line}\n\nBuild with make.\n`,
        },
        false,
      );
      expectNothingPageWide(result.text, name);
      expect(result.text).toContain("Build with make.");
      expect(result.text).toContain("MYRULE-NEVER push to main.");
      expect(warned(result), name).toEqual(["project/AGENTS.md:3"]);
    });

  it("F7(a): a trusted project's .pi/SYSTEM.md starting <frameset> drops nothing", async () => {
    const { result } = await render(
      { "project/.pi/SYSTEM.md": "<frameset></frameset>\nYou are a helper.\n" },
      true,
    );
    expectNothingPageWide(result.text, "frameset");
    expect(result.text).toContain("&lt;frameset></frameset>");
    expect(warned(result)).toEqual([".pi/SYSTEM.md:1"]);
  });

  it("F5: a trusted project's section .pi/sections/style.md is not wrapped in <style>", async () => {
    const { result } = await render(
      { "project/.pi/sections/style.md": "---\norder: 1\n---\n*{display:none}\n" },
      true,
    );
    expectNothingPageWide(result.text, "section style");
    expect(result.text).toContain("<project_style>\n*{display:none}");
    expect(result.diagnostics.map((d) => d.code)).toContain("section-tag-reserved");
  });

  it("a trusted project's APPEND_SYSTEM.md and partial printed in your section", async () => {
    const { result } = await render(
      {
        "agent/sections/mysec.md": "---\norder: 95\n---\nNotes: {{> notes}} MYWORDS.\n",
        "project/.pi/partials/notes.md": "See `<body hidden>` here.\n",
        "project/.pi/APPEND_SYSTEM.md": "Also:\n\n<style>*{display:none}</style>\n",
      },
      true,
    );
    expectNothingPageWide(result.text, "append and partial");
    expect(result.text).toContain("MYWORDS");
    expect(warned(result).sort()).toEqual([".pi/APPEND_SYSTEM.md:3", "partials/notes.md:1"]);
  });

  it("F8(a): a trusted project's .pi/SYSTEM.md with a <meta charset> in a code span", async () => {
    const { result } = await render(
      {
        "project/.pi/SYSTEM.md":
          'You are a helper. Pages declare `<meta charset="iso-2022-kr">` up front.\n',
      },
      true,
    );
    expectNothingPageWide(result.text, "meta");
    expect(warned(result)).toEqual([".pi/SYSTEM.md:1"]);
  });

  it("F4 on touch: a nested AGENTS.md given by a session's contextFor", async () => {
    const base = tempDir();
    writeFiles(base, {
      "p/.git/HEAD": "ref: refs/heads/main\n",
      "p/AGENTS.md": "# root\n",
      "p/sub/AGENTS.md": "# sub\n\nx <html hidden> y\n\nUse `<body hidden>` here.\n",
      "p/sub/g.txt": "y\n",
    });
    const cwd = join(base, "p");
    const session = createPromptSession({ cwd, home: join(base, "home") });
    const touched = await session.contextFor([join(cwd, "sub/g.txt")]);
    const text = formatTouched(touched.files, cwd);
    expect(text).toContain("x &lt;html hidden> y");
    expectNothingPageWide(`${text}\n\nQZ-NEXT tool text.\n`, "touch");
    expect(touched.diagnostics.filter((d) => d.code === "page-tag-escaped")).toHaveLength(1);
  });

  it("F4 in a trusted project's slash template: `Review this <body hidden> $ARGUMENTS`", () => {
    const content = "Review this <body hidden> $ARGUMENTS\n";
    const out = expandProjectTemplate(content, "/t MY-ARGS never push");
    expect(out.text).toContain("MY-ARGS never push");
    expectNothingPageWide(out.text, "slash template");
    expect(out.diagnostics.map((d) => d.code)).toContain("page-tag-escaped");
  });

  it("your own texts stay as written: your AGENTS.md's <style> and --append-system-prompt's <body>", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/AGENTS.md": "Mine: `<style>` and `<body hidden>` in examples.\n",
    });
    const result = await renderSystemPrompt(
      pinned(root, { appendSystemPrompt: "Also `<meta charset=x>`." }),
    );
    expect(result.text).toContain("Mine: `<style>` and `<body hidden>` in examples.");
    expect(result.text).toContain("Also `<meta charset=x>`.");
    expect(warned(result)).toEqual([]);
  });

  it("keeps end tags and other names as written", async () => {
    const { result } = await render(
      {
        "project/AGENTS.md":
          "# P\n\nClose with `</body>` and `</html>`; use `</template>` and `<metadata>` and `<styles>`.\n",
      },
      false,
    );
    expect(result.text).toContain(
      "Close with `</body>` and `</html>`; use `</template>` and `<metadata>` and `<styles>`.",
    );
    expect(warned(result)).toEqual([]);
  });

  // rev82f F1, F4 (fx87a): a `<template>` without a shadow root draws nothing in place either.
  it("a <template> without a shadow root is text too, said at its line", async () => {
    const { result } = await render(
      { "project/AGENTS.md": "# P\n\nUse `<template>x</template>` here.\n" },
      false,
    );
    expect(result.text).toContain("Use `&lt;template>x</template>` here.");
    expect(warned(result)).toEqual(["project/AGENTS.md:3"]);
  });
});
