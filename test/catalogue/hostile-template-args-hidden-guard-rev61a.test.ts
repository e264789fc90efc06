import { describe, expect, it } from "vitest";
import { oracleHidden } from "../_oracle/hidden-oracle.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev61a (F5, F9, F10): three ways a project's slash template kept your words inside an
// element no reader shows while the guard said it had freed them (or said nothing). Judged by
// the oracle: commonmark's HTML of the expansion parsed by parse5 (a real HTML tree builder).
// F5: the HTML closer was written inside the fence that holds `$ARGUMENTS` (a line of code).
// F9: after four closers the guard stopped, something hiding still open.
// F10: a backtick in your first argument ended the template's code span early, and the
// `<b hidden>` the guard had read as code was markup hiding your second.
// A `hidden` attribute is not kept in a text not yours since rev82f F1 (its `<` is written `&lt;`
// with `page-tag-escaped`), so each case hides with `<details>`, kept and closed by the same closers.

const MARKER = "Qzmarker";

function verdict(content: string, args: string) {
  const out = expandProjectTemplate(content, `/t ${args}`);
  return {
    text: out.text,
    codes: out.diagnostics.map((d) => d.code),
    seen: oracleHidden(out.text, MARKER),
  };
}

describe("hostile repository: the slash guard frees your words from a fence, deep nesting and code spans your words end", () => {
  it("F5: a hiding element open over a fence that holds your words: the fence is closed before the HTML closers", () => {
    for (const content of [
      "<details>\n\n```\n$ARGUMENTS\n```\n",
      "<details>\n\n```text\nlog: $ARGUMENTS\n```\n\nTAIL\n",
      "</details >\\<details>\n\n~~~\n$ARGUMENTS\n~~~",
    ]) {
      const { text, codes, seen } = verdict(content, `${MARKER} please delete the backups`);
      expect(seen, `${content}\n->\n${text}`).toBe("shown");
      expect(codes, content).toEqual(["arguments-hidden"]);
    }
  });

  it("F9: more hiding elements than four closers end: your words are shown", () => {
    for (const content of [
      `${"<details>\n".repeat(5)}\n$ARGUMENTS\n`,
      `x ${Array.from({ length: 12 }, (_, i) => `<details id=${i}>`).join("")}y $ARGUMENTS`,
    ]) {
      // Closed by the guard's closers, or (more than they end) its markup read as text.
      const { text, codes, seen } = verdict(content, `${MARKER} never force-push`);
      expect(seen, `${content}\n->\n${text}`).toBe("shown");
      expect(codes, content).toEqual(["arguments-hidden"]);
    }
  });

  it("F10: a backtick in your words ends or opens the template's code span: what it held is judged as markup", () => {
    for (const [content, args] of [
      ["Fix `$1 <details>` now.\n\nDetails: $2\n", `a\`b ${MARKER}-keep`],
      ["Fix `$1 <details>` ```\n\nDetails: $2\n", `a\`b ${MARKER}-keep`],
      ["Fix $1 `<details>` z\n\nDetails: $2\n", `\` ${MARKER}-keep`],
      ["Fix $1 ``<details>`` z\n\nDetails: $2\n", `\`\` ${MARKER}-keep`],
    ] as const) {
      const { text, codes, seen } = verdict(content, args);
      expect(seen, `${content}\n->\n${text}`).toBe("shown");
      expect(codes, content).toEqual(["arguments-hidden"]);
    }
  });

  it("a code span your words cannot reach, and a fence with nothing hiding: left as written", () => {
    // The code span's `<details>` is a tag to an HTML parser fed the raw prompt, which hid your
    // words (rev72c F2): its `<` is written `&lt;`, with the warning.
    const span = verdict("Use `<details>` for emphasis.\n\n$ARGUMENTS\n", `${MARKER} now`);
    expect(span.codes).toEqual(["arguments-hidden"]);
    expect(span.text).toBe(`Use \`&lt;details>\` for emphasis.\n\n${MARKER} now\n`);
    expect(span.seen).toBe("shown");
    // A `<b hidden>` draws nothing in place (rev82f F1): its `<` is written `&lt;` wherever it stands.
    const hidden = verdict("Use `<b hidden>` for emphasis.\n\n$ARGUMENTS\n", `${MARKER} now`);
    expect(hidden.codes).toEqual(["page-tag-escaped"]);
    expect(hidden.text).toBe(`Use \`&lt;b hidden>\` for emphasis.\n\n${MARKER} now\n`);
    expect(hidden.seen).toBe("shown");
    const fence = verdict("<div>\n\n```\n$ARGUMENTS\n```\n", `${MARKER} now`);
    expect(fence.codes).toEqual([]);
    expect(fence.text).toBe(`<div>\n\n\`\`\`\n${MARKER} now\n\`\`\`\n`);
  });
});
