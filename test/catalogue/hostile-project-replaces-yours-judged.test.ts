import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import type { SystemPromptOptions } from "../../src/options.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev52b F2 (medium), F1 and F12 (low): whether a trusted project's
// section over yours left your text out was judged against the LAST file of
// yours of that name (a switched-off variant for other models hid the
// replacement of the version that served), on the spelling of the call
// (`{{> base extra=1}}` printed your body and was warned about), with your
// own HTML comment counted as a line to find, and with `{{> base}}` inside
// `<?…?>`, CDATA, a declaration or a `<script>` counted as shown. Now it is
// judged on the stack this render uses and on what was printed, both sides
// read without what an HTML reader never shows.

const YOURS = "---\norder: 65\n---\nMY-LINE-ONE never deploy on friday\nMY-LINE-TWO ask first\n";

async function render(files: Record<string, string>, extra: SystemPromptOptions = {}) {
  const root = tempDir();
  writeFiles(root, { "project/AGENTS.md": "hi\n", ...files });
  const result = await renderSystemPrompt(pinned(root, { projectTrusted: true, ...extra }));
  const left = result.diagnostics.filter((d) => d.code === "user-text-left-out");
  return { root, text: result.text, left };
}

const project = (body: string) => ({
  "project/.pi/sections/usec.md": `---\norder: 65\n---\n${body}`,
});

describe("hostile repository: a project's section over yours is judged on what serves and what it printed", () => {
  it("F2: your switched-off variant for other models does not hide the replacement of the version that serves", async () => {
    for (const variant of [
      '---\nmodels: ["zz-*"]\nenabled: false\n---\n',
      '---\nmodels: ["zz-*"]\nbase: true\n---\nMY-ZZ\n',
    ]) {
      for (const theirs of [
        project("project words only\n"),
        { "project/.pi/sections/usec.md": "---\nenabled: false\n---\n" },
        {
          "project/.pi/sections/usec.md": "---\nbase: true\n---\n",
          "project/.pi/SYSTEM.md": "Sys.\n",
        },
      ]) {
        const { root, text, left } = await render(
          { "agent/sections/usec.md": YOURS, "agent/sections/usec@zz.md": variant, ...theirs },
          { model: "gpt-4o" },
        );
        expect(text).not.toContain("MY-LINE-ONE");
        expect(
          left.map((d) => d.path),
          JSON.stringify([variant, theirs]),
        ).toEqual([join(root, "project/.pi/sections/usec.md")]);
        expect(left[0]?.message).toContain(join(root, "agent/sections/usec.md"));
      }
    }
    // Your variant that serves, switched off: nothing of yours was there to leave out.
    const off = await render(
      {
        "agent/sections/usec.md": YOURS,
        "agent/sections/usec@zz.md": '---\nmodels: ["zz-*"]\nenabled: false\n---\n',
        ...project("project words only\n"),
      },
      { model: "zz-1" },
    );
    expect(off.left).toEqual([]);
  });

  it("F1: a call with arguments, or your own comment, is no false alarm; a call printing nothing of yours still warns", async () => {
    for (const body of [
      "{{> base extra=1}}\n",
      "{{> base this}}\n",
      "{{~> base}}\n",
      "> {{> base}}\n",
    ]) {
      const { text, left } = await render({ "agent/sections/usec.md": YOURS, ...project(body) });
      expect(text, body).toContain("MY-LINE-TWO ask first");
      expect(left, body).toEqual([]);
    }
    const commented = "---\norder: 65\n---\n<!-- my note to self -->\nMY-LINE-ONE never deploy\n";
    const { text, left } = await render({
      "agent/sections/usec.md": commented,
      ...project("{{> base}}\n"),
    });
    expect(text).toContain("MY-LINE-ONE");
    expect(left).toEqual([]);
    for (const body of [
      "{{> base extra=1}}\n",
      "Project.\n{{#if false}}{{> base this}}{{/if}}\n",
    ]) {
      const swapped = await render({
        "agent/sections/usec.md": YOURS,
        "agent/partials/other.md": "OTHER\n",
        ...project(body.replace("{{> base extra=1}}", "{{> other extra=1}}")),
      });
      expect(swapped.text).not.toContain("MY-LINE-ONE");
      expect(swapped.left, body).toHaveLength(1);
    }
  });

  it("F12: {{> base}} inside <?…?>, CDATA, a declaration or a <details> is not shown; in a <script> or a <style>, written &lt;, it is", async () => {
    const hides = [
      "<?ignore\n{{> base}}\n?>\nproject words\n",
      "<![CDATA[\n{{> base}}\n]]>\nproject words\n",
      "<!IGNORE\n{{> base}}\n>\nproject words\n",
      "<details>\n{{> base}}\n</details>\nproject words\n",
      "<DETAILS>\n\n{{> base}}\n\n</Details >\nproject words\n",
      "Project words <?x {{> base}} ?> and more.\n",
    ];
    for (const body of hides) {
      const { root, text, left } = await render({
        "agent/sections/usec.md": YOURS,
        ...project(body),
      });
      expect(text, body).toContain("MY-LINE-ONE");
      expect(
        left.map((d) => d.path),
        body,
      ).toEqual([join(root, "project/.pi/sections/usec.md")]);
    }
    // rev80c F5: a project's `<style>` start tag is written `&lt;style>`: your text in it is shown.
    const styled = await render({
      "agent/sections/usec.md": YOURS,
      ...project("<style>\n{{> base}}\n</style>\nproject words\n"),
    });
    expect(styled.text).toContain("&lt;style>\nMY-LINE-ONE");
    expect(styled.left).toEqual([]);
    // rev82f F1, F4: a `<script>` or `<template>` start tag draws nothing in place: written `&lt;`.
    for (const body of [
      '<script type="text/x-obsolete">\n{{> base}}\n</script>\nproject words\n',
      '<SCRIPT type="text/x-obsolete">\n{{> base}}\n</Script >\nproject words\n',
      "<template>\n{{> base}}\n</template>\nproject words\n",
    ]) {
      const escaped = await render({ "agent/sections/usec.md": YOURS, ...project(body) });
      expect(escaped.text, body).toContain(`&lt;${body.slice(1, body.indexOf("\n"))}\nMY-LINE-ONE`);
      expect(escaped.left, body).toEqual([]);
    }
    // Your body holding such a run reads alike on both sides: printed, no warning.
    const mine =
      "---\norder: 65\n---\nMY-LINE-ONE\n<?note to self?>\n<script>x()</script>\nMY-LINE-TWO\n";
    const kept = await render({
      "agent/sections/usec.md": mine,
      ...project("Team.\n\n{{> base}}\n"),
    });
    expect(kept.left).toEqual([]);
  });
});

describe("hostile repository: what is never shown, read in linear time", () => {
  it("a block the project leaves open over your body hides it; one never closed mid-line is text", async () => {
    const open = await render({
      "agent/sections/usec.md": YOURS,
      ...project("<?ignore\n{{> base}}\n"),
    });
    expect(open.left).toHaveLength(1);
    const code = await render({
      "agent/sections/usec.md": YOURS,
      ...project("Sample: `<?php echo 1;`\n\n{{> base}}\n"),
    });
    expect(code.left).toEqual([]);
  });
});
