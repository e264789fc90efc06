import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BUILTIN_ELEMENTS } from "../../src/_builtin-element-names.js";

// An element of the prompt is ended by `wrappedElement` (src/_fence.ts): a blank line before its
// end tag where CommonMark would read the tag as a paragraph's text (review rev82c O1). The
// `/skill:` expansion wrote `</skill>` by hand and missed it (review rev92c F3). This lists every
// end tag written in src/ (a string naming a builtin element, or `</${…}>`) and fails on one
// not accounted for below: a new element's end goes through the helper, or is added here with
// the reason it is right.

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** The end tags each file may write, counted, and why. */
const ALLOWED: Record<string, number> = {
  // wrappedElement itself; rawEndTags ends a repository's own open tags (the closers); the end
  // tag hostClosersOf asks endTagsWritable about for a tag a tool result ends in (not written).
  "_fence.ts": 3,
  // CommonMark's reading: the end tags that close an HTML block of kind 1 (not written).
  "_blocks.ts": 2,
  // The HTML reader's closers: end tags of a text's own open elements.
  "sections/html-reading.ts": 6,
  // pi's own text (`piPromptText`), compared byte for byte with what pi sends.
  "integrations/pi/structure.ts": 2,
  // After ELEMENT_END, a blank line always.
  "locate/custom.ts": 1,
  "touch/format.ts": 1,
  // The skills index: one-line elements, the description's after ELEMENT_END; the listing's
  // end is the section's, ended by wrappedElement.
  "skills/format.ts": 6,
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("the prompt's elements are ended in one place", () => {
  it("no end tag of an element is written by hand outside the files listed", () => {
    const names = new Set(BUILTIN_ELEMENTS);
    const found: Record<string, number> = {};
    for (const file of sources(SRC)) {
      const name = relative(SRC, file).split("\\").join("/");
      if (name === "_builtin-element-names.ts") continue;
      for (const line of readFileSync(file, "utf8").split("\n")) {
        const code = line.trim();
        if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) continue;
        for (const m of line
          .replace(/\/\/ .*$/, "")
          .matchAll(/<\/(\$\{[^}]*\}|[A-Za-z_][\w.:-]*)>/g)) {
          const tag = m[1] as string;
          if (tag.startsWith("${") || names.has(tag.toLowerCase()))
            found[name] = (found[name] ?? 0) + 1;
        }
      }
    }
    expect(found).toEqual(ALLOWED);
  });
});
