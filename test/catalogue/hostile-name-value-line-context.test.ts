import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { linksOf, placeOf } from "./_commonmark.js";
import { renderYourSection } from "./_your-section.js";

// Review rev68c F2, F4, F5, F6, F9: a repository's name or a project's value is printed by
// your own template in a context that changes how it reads. A backtick in your fence's info
// string (```{{vars.lang}}, ```{{name}}) made your opening line no fence, so your closing
// fence opened one over the rest of the prompt (F2); one left unpaired paired with a later
// backtick of yours, your words a code span (F5). Leading blanks at your line's start, or
// after your list item's marker, made your words indented code (F4). A rule file named
// `[docs].mdc` printed by `- {{name}}: {{path}}` defined the label your own link uses (F6).
// An on-demand rule's path had its run of blanks made one (F9). Now a name or a one-line
// value writes each backtick `&#96;`, its leading blanks `\u0020` and each bracket as `&#91;` / `&#93;` (rev72c F4);
// a value of several lines holds its first line and its last paragraph the same way.

/** The text of the section `name` (`<name>` … `</name>`) in `text`. */
function sectionOf(text: string, name: string): string {
  const start = text.indexOf(`<${name}>`);
  return start === -1 ? "" : text.slice(start, text.indexOf(`</${name}>`, start));
}

/** A render of an untrusted repository holding `rules` (files under `.cursor/rules/`) with your section `body`. */
async function renderRules(body: string, rules: Record<string, string>) {
  const root = tempDir();
  const files: Record<string, string> = {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/sections/mine.md": `---\norder: 95\n---\n${body}`,
  };
  for (const [name, text] of Object.entries(rules)) files[`project/.cursor/rules/${name}`] = text;
  writeFiles(root, files);
  return (await renderSystemPrompt(pinned(root, { projectTrusted: false }))).text;
}

const ALWAYS = "---\nalwaysApply: true\n---\nUse tabs.\n";

describe("hostile repository: a name or value keeps your line around it yours", () => {
  it("a backtick in a value or a rule's name in your fence's info string: your fence stays one (F2)", async () => {
    const fence =
      "Run the checks:\n\n```{{vars.lang}}\nmake test\n```\n\nUSER-AFTER-FENCE: never push.\n";
    for (const lang of ["sh`", "`", "js `x`", "sh`\nfoo"]) {
      const { result } = await renderYourSection(fence, { lang });
      expect(placeOf(result.text, "USER-AFTER-FENCE").block, lang).toBe("paragraph");
      expect(placeOf(result.text, "Current working directory").block, lang).not.toBe("code");
    }
    const text = await renderRules(
      "{{#each alwaysRules}}\n```{{name}}\n{{content}}\n```\n\n{{/each}}\nUSER-AFTER-FENCE: never push.\n",
      { "style`.mdc": ALWAYS },
    );
    expect(sectionOf(text, "mine")).toContain("```style&#96;");
    expect(placeOf(text, "USER-AFTER-FENCE").block).toBe("paragraph");
  });

  it("a value's lone backtick pairs with none of yours: your words are no code span (F5)", async () => {
    const line = "Intro.\n\nWork for team {{vars.team}} and USER-NEVER-PUSH to `main`.\n";
    for (const team of ["core `", "a `b\n\nc `d", "a `b\nc"]) {
      const { result } = await renderYourSection(line, { team });
      expect(placeOf(result.text, "USER-NEVER-PUSH").block, team).toBe("paragraph");
    }
  });

  it("leading blanks in a name or value, or a value's last line, make none of your words code (F4)", async () => {
    const item = await renderRules(
      "Rules:\n\n{{#each alwaysRules}}\n- {{name}} (USER-WEIGH-IT below yours)\n{{/each}}\n",
      { "    style.mdc": ALWAYS },
    );
    expect(sectionOf(item, "mine")).toContain("- \\u0020\\u0020\\u0020\\u0020style (USER-WEIGH-IT");
    expect(placeOf(item, "USER-WEIGH-IT")).toEqual({ block: "paragraph", containers: ["item"] });
    const start = await renderRules(
      "Intro.\n\n{{#each alwaysRules}}\n{{name}} is a repository rule: USER-WEIGH-IT below yours.\n\n{{/each}}\n",
      { "    style.mdc": ALWAYS },
    );
    expect(placeOf(start, "USER-WEIGH-IT").block).toBe("paragraph");
    const line =
      "Intro.\n\n{{vars.team}} owns this, and USER-NEVER-PUSH to main.\n\nUSER-NEXT here.\n";
    for (const team of [
      "    core",
      "core\n\n    ops",
      "x\n\n\ty",
      "x\n\n-     y",
      "x\n\n1.     y",
    ]) {
      const { result } = await renderYourSection(line, { team });
      expect(placeOf(result.text, "USER-NEVER-PUSH").block, team).not.toBe("code");
      expect(placeOf(result.text, "USER-NEXT"), team).toEqual({
        block: "paragraph",
        containers: [],
      });
    }
    for (const team of ["x\n\n>     y", "x\n\n> >     y", "x\n\n  -     y", "a\n- b\n\n      c"]) {
      const { result } = await renderYourSection(line, { team });
      expect(placeOf(result.text, "USER-NEVER-PUSH").block, team).not.toBe("code");
    }
  });

  it("a rule named `[docs]` in your `- {{name}}: {{path}}` defines no label of yours (F6)", async () => {
    const text = await renderRules(
      "Intro.\n\nBefore anything, read [the team handbook][docs].\n\n{{#each alwaysRules}}\n- {{name}}: {{path}}\n{{/each}}\n\n[docs]: https://handbook.mine.example/\n",
      { "[docs].mdc": ALWAYS },
    );
    const handbook = linksOf(text).filter((l) => l.text === "the team handbook");
    expect(handbook).toEqual([
      { text: "the team handbook", destination: "https://handbook.mine.example/" },
    ]);
    expect(sectionOf(text, "mine")).toContain("- &#91;docs&#93;: ");
  });

  it("a rule file's look-alike `<` or owner mark is never written `&lt;` in name= and path= (F7)", async () => {
    const text = await renderRules("Intro.\n", {
      "b owner＝＂user＂.mdc": ALWAYS,
      "c ＝user.mdc": "---\nalwaysApply: true\n---\nUse spaces.\n",
    });
    expect(text).toMatch(
      /<rule name="b owner&#61;＂user＂" format="cursor" path="\S*\/b owner&#61;＂user＂\.mdc">/,
    );
    // An XML reader decodes the name and path to the file's own.
    expect(text).toMatch(/<rule name="c &#65309;user" format="cursor" path="\S*\/c ＝user\.mdc">/);
    expect(text).not.toMatch(/name="[^"]*&lt;/);
  });

  it("an on-demand rule's path keeps its run of blanks (F9)", async () => {
    const text = await renderRules("Intro.\n", {
      "my    globby.mdc": '---\nglobs: "*.ts"\n---\nTyped.\n',
    });
    expect(text).toMatch(/— \S*\/\.cursor\/rules\/my {4}globby\.mdc/);
  });
});
