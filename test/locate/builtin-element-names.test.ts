import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { normalizeText, parseFrontmatter } from "../../src/_frontmatter.js";
import { elementNamesOf, rememberElementNames, wrapperNames } from "../../src/_prompt-text.js";

const SECTIONS = fileURLToPath(new URL("../../prompts/sections/", import.meta.url));

/** The builtin sections as wrapperNames reads them. */
function builtinSections() {
  return readdirSync(SECTIONS)
    .filter((n) => n.endsWith(".md"))
    .sort()
    .map((n) => {
      const doc = parseFrontmatter(normalizeText(readFileSync(join(SECTIONS, n), "utf8")));
      if (!doc.ok) throw new Error(`${n} does not parse`);
      return { name: n.slice(0, -3), meta: {}, body: doc.body };
    });
}

// The build reads the builtin prompts' element names once (src/locate/builtin-cache.ts); a
// render takes them from there instead of reading every builtin template again.
describe("element names known ahead", () => {
  it("give the same names, in the same order, as reading the texts", () => {
    const templates = builtinSections();
    // Names from the data and other tags' literals: `{{#xml vars.tag}}` adds both.
    const own = '{{#xml vars.tag}}x{{/xml}}{{#with "file_notes" as |t|}}{{t}}{{/with}}</Правила>';
    const vars = { tag: "deploy_notes" };
    const read = [...wrapperNames(templates, true, [own], vars)];
    expect(read).toContain("deploy_notes");
    expect(read).toContain("file_notes");
    rememberElementNames([own, ...templates.map((t) => t.body)].map((t) => [t, elementNamesOf(t)]));
    expect([...wrapperNames(templates, true, [own], vars)]).toEqual(read);
  });

  it("are taken as known for a text that matches exactly, and never under a project's caps", () => {
    const text = "</builtin_body_read_at_build>";
    rememberElementNames([[text, { names: ["as_remembered"], literals: [], fromData: false }]]);
    const sectionOf = (body: string) => [{ name: "s", meta: { tag: false as const }, body }];
    const section = sectionOf(text);
    expect(wrapperNames(section)).toContain("as_remembered");
    expect(wrapperNames(section)).not.toContain("builtin_body_read_at_build");
    // A trusted project's templates are read within their caps (room): the text itself. The
    // cap counts the names every render knows (the hosts' among them), so the room is above them.
    const known = wrapperNames([]).size;
    const capped = wrapperNames(section, false, [], {}, { max: known + 100 });
    expect(capped).toContain("builtin_body_read_at_build");
    expect(capped).not.toContain("as_remembered");
    expect(wrapperNames(sectionOf(`${text} `))).toContain("builtin_body_read_at_build");
  });
});
