import { type DefaultTreeAdapterMap, parse } from "parse5";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { touchedElement } from "../../src/touch/format.js";
import { oracleHidden } from "../_oracle/hidden-oracle.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev70a F2, F9, F3. rev68c F8 wrote as text only a tag left open inside a QUOTED attribute
// value at a repository text's end. Any other markup an HTML parser of the raw prompt is still in
// there was left as written: `see <span hidden` (cut between attributes) took the prompt's next
// tag's `>` and hid the rest of the prompt (your sections, your AGENTS.md) inside the span (F2);
// `<!x`, `</x y`, `<?x`, `<![CDATA[` ran to `</repository_append>`'s `>`, so your appended text
// read as the repository's (F9); and your own later `>` (`run make > log`) ended such a tag for
// CommonMark, hiding your words (F3: the check's probe held no `>`). Now any tokenizer state but
// data at a repository text's end has its `<` written `&lt;`, with the text's warning.

type Node = DefaultTreeAdapterMap["node"];

/** How an HTML parser fed the raw prompt reads `marker`: the elements above its text node, and whether one hides it; undefined when in no text node. */
function rawReading(
  text: string,
  marker: string,
): { hidden: boolean; inside: string[] } | undefined {
  let found: { hidden: boolean; inside: string[] } | undefined;
  const walk = (node: Node, inside: string[], hidden: boolean) => {
    if (found !== undefined) return;
    if (node.nodeName === "#text") {
      if ((node as DefaultTreeAdapterMap["textNode"]).value.includes(marker))
        found = { hidden, inside };
      return;
    }
    let here = inside;
    let hides = hidden;
    if ("tagName" in node) {
      here = [...inside, node.tagName];
      hides = hidden || node.attrs.some((a) => a.name === "hidden");
    }
    for (const child of "childNodes" in node ? (node.childNodes as Node[]) : [])
      walk(child, here, hides);
  };
  walk(parse(text), [], false);
  return found;
}

async function render(files: Record<string, string>, trusted: boolean, append?: string) {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  return renderSystemPrompt(
    pinned(root, {
      projectTrusted: trusted,
      configFiles: true,
      ...(append === undefined ? {} : { appendSystemPrompt: append }),
    }),
  );
}

const mine = "---\norder: 95\n---\nQZ-MINE: never push to main.\n";

describe("hostile repository: a repository text ending in any unended markup hides nothing after it (rev70a F2, F9, F3)", () => {
  it("F2: a trusted project's section ending `see <span hidden`: your later section is shown to a raw HTML reading", async () => {
    const result = await render(
      {
        "agent/sections/mine.md": mine,
        "project/.pi/sections/notes.md": "---\norder: 5\n---\nProject notes; see <span hidden",
      },
      true,
    );
    expect(result.text).toContain("Project notes; see &lt;span hidden");
    for (const marker of ["QZ-MINE", "Current working directory"])
      expect(rawReading(result.text, marker)?.hidden, marker).toBe(false);
    // Since rev82f F1, F4 a start tag not ended before the text's end is held unread: its `<` is
    // written `&lt;` by the draw-in-place reading, with page-tag-escaped, before the closers look.
    const said = result.diagnostics.find((d) => d.code === "page-tag-escaped");
    expect(said?.path).toContain("notes.md");
  });

  it("F2: a trusted project's SYSTEM.md ending `see <span hidden`: the prompt after it is shown", async () => {
    const result = await render(
      { "project/.pi/SYSTEM.md": "You are a build bot; see <span hidden" },
      true,
    );
    expect(result.text).toContain("You are a build bot; see &lt;span hidden");
    expect(rawReading(result.text, "Current working directory")?.hidden).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toContain("page-tag-escaped");
  });

  it("F2: an untrusted AGENTS.md ending `see <span hidden`: the builtin sentences after it are shown", async () => {
    const result = await render(
      { "project/AGENTS.md": "Build with make; see <span hidden" },
      false,
    );
    expect(result.text).toContain("Build with make; see &lt;span hidden");
    expect(rawReading(result.text, "Current working directory")?.hidden).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toContain("page-tag-escaped");
  });

  // An unended start tag (an ASCII letter after `<`) is written `&lt;` by the draw-in-place
  // reading since rev82f F1, F4, with page-tag-escaped; the other states by the closers.
  const startTag = (tail: string) => /<[A-Za-z]/.test(tail);
  for (const tail of [
    "see <span hidden",
    "see <span hidden=x",
    "see <br/",
    "see <details",
    "see <!x",
    "see </x y",
    "see <?x",
    "see <![CDATA[",
    "see <!DOCTYPE html",
    "see <",
    "see </",
    "see <!",
  ]) {
    it(`F9: an APPEND_SYSTEM.md ending ${JSON.stringify(tail)}: your appended text is not the repository's`, async () => {
      const result = await render(
        { "project/.pi/APPEND_SYSTEM.md": `Build with make; ${tail}` },
        true,
        "QZ-APPEND: never push to main.",
      );
      const reading = rawReading(result.text, "QZ-APPEND");
      expect(reading?.inside).not.toContain("repository_append");
      expect(reading?.hidden).toBe(false);
      expect(result.diagnostics.map((d) => d.code)).toContain(
        startTag(tail) ? "page-tag-escaped" : "append-markup-as-text",
      );
    });
  }

  it("F2 on touch: a nested AGENTS.md ending `see <span hidden` hides none of the next file", () => {
    const element = touchedElement(
      { path: "/p/sub/AGENTS.md", content: "Nested notes; see <span hidden", kind: "context" },
      "/p",
    );
    const next = '<instructions path="r.mdc">\nQZ-GLOB-RULE: typed.\n</instructions>';
    const reading = rawReading(`${element}\n${next}`, "QZ-GLOB-RULE");
    expect(reading?.hidden).toBe(false);
  });

  it("F3: your words holding a `>` after an AGENTS.md ending `see <span hidden` are shown", async () => {
    for (const [body, marker] of [
      [
        "{{#each contextFiles}}\nFrom {{path}}: {{content}} then run make > log and QZ-NEVER push to main.\n\n{{/each}}\n",
        "QZ-NEVER",
      ],
      [
        "{{#each contextFiles}}\n{{content}}\nQZ-TAIL: run make > build.log, then NEVER push to main.\nQZ-NEXT: yours wins.\n\n{{/each}}\n",
        "QZ-NEXT",
      ],
    ] as const) {
      const result = await render(
        {
          "agent/sections/mysec.md": `---\norder: 95\n---\nIntro.\n\n${body}`,
          "project/AGENTS.md": "Build.\n\nsee <span hidden",
        },
        false,
      );
      expect(oracleHidden(result.text, marker), marker).toBe("shown");
      expect(rawReading(result.text, marker)?.hidden, marker).toBe(false);
    }
  });

  it("F3: a processing instruction your `?>` would complete, and a trusted value of several lines", async () => {
    const pi = await render(
      {
        "agent/sections/mysec.md":
          "---\norder: 95\n---\nIntro.\n\n{{#each contextFiles}}\nFrom {{path}}: {{content}} QZ-NEVER push to main (then run: make ?> x).\n\n{{/each}}\n",
        "project/AGENTS.md": "Build.\n\nsee <?",
      },
      false,
    );
    expect(oracleHidden(pi.text, "QZ-NEVER")).toBe("shown");
    const value = await render(
      {
        "agent/sections/mysec.md":
          "---\norder: 95\n---\nIntro.\n\nWork for team {{vars.x}} then run make > build.log and USER-NEVER push to main.\n\nUSER-NEXT.\n",
        "project/.pi/sysprompt.yaml": 'vars:\n  x: "core\\nsee <span hidden"\n',
      },
      true,
    );
    expect(value.text).toContain("see &lt;span hidden then run make > build.log");
    expect(oracleHidden(value.text, "USER-NEVER")).toBe("shown");
  });

  it("a text whose markup all ends is printed as written", async () => {
    const result = await render(
      { "project/AGENTS.md": "Use a <b>b</b> and <!-- c --> and a < b, then 3 <4." },
      false,
    );
    expect(result.text).toContain("Use a <b>b</b> and <!-- c --> and a < b, then 3 <4.");
  });
});
