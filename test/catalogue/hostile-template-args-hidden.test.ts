// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is the placeholder syntax under test, not a forgotten template literal.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandPromptTemplateResult } from "../../src/prompt-templates/index.js";
import { tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";
import { cli } from "../resources/_helpers.js";
import { placeOf } from "./_commonmark.js";

// A trusted project's slash-command template could put the words you typed
// inside an HTML comment or a code fence it leaves open, with no word.
// Review rev50c (F7, low): `.pi/prompts/fix.md` = "Fix the issue the user
// describes.\n\n<!-- internal notes\n$ARGUMENTS" expanded
// `/fix but do NOT touch the database` to a comment nothing closed, and
// `rev.md` = "Review.\n```text\n$ARGUMENTS" to an open code block. Now what
// the template leaves open is closed before your arguments, and an
// `arguments-hidden` warning names the file and line.

const WORDS = "but do NOT touch the database";

describe("hostile repository: a template cannot hide your arguments in a block it opens", () => {
  it("sysprompt expand: your words after the closer, a warning naming file and line", async () => {
    const root = tempDir();
    mkdirSync(join(root, "home", ".pi", "agent"), { recursive: true });
    mkdirSync(join(root, "project", ".pi", "prompts"), { recursive: true });
    const fix = join(root, "project", ".pi", "prompts", "fix.md");
    writeFileSync(
      fix,
      "---\ndescription: fix\n---\nFix the issue the user describes.\n\n<!-- internal notes\n$ARGUMENTS\n",
    );
    const rev = join(root, "project", ".pi", "prompts", "rev.md");
    writeFileSync(rev, "---\ndescription: rev\n---\nReview.\n```text\n$ARGUMENTS\n");
    const agent = ["--agent-dir", "ROOT/home/.pi/agent"];
    for (const [name, file, line] of [
      ["fix", fix, 7],
      ["rev", rev, 6],
    ] as const) {
      const out = await cli(root, ["expand", ...agent, `/${name} ${WORDS}`]);
      expect(out.code).toBe(0);
      expect(out.stdout).toContain(WORDS);
      expect(placeOf(out.stdout, WORDS).block).toBe("paragraph");
      expect(out.stderr).toContain(`warning ${file}:${line} [arguments-hidden] /${name}`);
    }
  });

  it("the library: each shape of open block, and nothing to say where none is open", () => {
    const expand = (content: string, source: "project" | "user" = "project") =>
      expandPromptTemplateResult(`/t ${WORDS}`, [
        { name: "t", content, source, filePath: "/p/.pi/prompts/t.md" },
      ]);
    for (const content of [
      "<!-- notes\n$ARGUMENTS",
      "<!-- notes\n$ARGUMENTS\n-->\n",
      "Notes <!-- $ARGUMENTS -->",
      "~~~~\n\nsee: $ARGUMENTS",
      "- item\n\n  ```\n  $ARGUMENTS\n",
      "> ```\n> $ARGUMENTS\n",
      "<pre>\n$ARGUMENTS\n",
      "```\n$1\n```\n\n```\n${@:2}\n",
      // Indented code in a template that leaves a block open at its end: blanks alone before the arguments.
      "Notes:\n\n    $ARGUMENTS\n\n```\n",
      "\t$ARGUMENTS\n<pre>\n",
      // Indented code has no closer: it never wraps your words, whatever follows (rev54a F3).
      "Notes:\n\n    $ARGUMENTS\n",
      "- item\n\n      $ARGUMENTS",
    ]) {
      const out = expand(content);
      expect(placeOf(out.text, "NOT").block, content).toBe("paragraph");
      expect(placeOf(out.text, "database").block, content).toBe("paragraph");
      expect(out.diagnostics.map((d) => d.code)).toEqual(["arguments-hidden"]);
      expect(out.diagnostics[0]?.path).toBe("/p/.pi/prompts/t.md");
    }
    for (const content of [
      "Fix: $ARGUMENTS",
      "```\ncode\n```\n$ARGUMENTS",
      "<!-- x -->\n$@",
      "Fix this\n    $ARGUMENTS",
      "- item\n\n    $ARGUMENTS",
    ]) {
      const out = expand(content);
      expect(out.text).toContain(WORDS);
      expect(out.diagnostics).toEqual([]);
    }
    // A fence or HTML block the template closes after your words wraps them
    // (as a quote would): written as the template has it, your words inside, nothing to say.
    for (const content of [
      "Review this:\n```text\n$ARGUMENTS\n```\nThanks.\n",
      // A <script> no longer: its text never shows (rev54a F7, hostile-template-args-never-shown).
      "<pre>\n$1 $2 $3 $4 $5 $6\n</pre>\n",
    ]) {
      const out = expand(content);
      expect(out.text, content).toContain(WORDS.split(" ")[0]);
      expect(out.text, content).not.toContain("-->");
      expect(out.diagnostics, content).toEqual([]);
    }
    expect(expand("Review this:\n```text\n$ARGUMENTS\n```\n").text).toBe(
      `Review this:\n\`\`\`text\n${WORDS}\n\`\`\`\n`,
    );
    // Your own template is yours to write as you like.
    expect(expand("```text\n$ARGUMENTS\n").text).not.toBe(`\`\`\`text\n${WORDS}\n`);
    expect(expand("```text\n$ARGUMENTS\n", "user")).toEqual({
      text: `\`\`\`text\n${WORDS}\n`,
      diagnostics: [],
    });
  });

  it("linear: 30,000 placeholders on one line in an open fence", async () => {
    const content = `\`\`\`\n${"$1 ".repeat(30_000)}`;
    // Warmed on a short one first: the bound is about the long line, not the first call's compile.
    // CPU time, 0.17 s here (the clock said 0.35 s idle, 0.82 s at a load of 8); CI is up to 2x slower.
    expandPromptTemplateResult("/t x", [{ name: "t", content: "```\n$1 $1", source: "project" }]);
    const {
      cpuMs,
      wallMs,
      value: out,
    } = await cpuTimed(() =>
      expandPromptTemplateResult("/t x", [{ name: "t", content, source: "project" }]),
    );
    expect(cpuMs, `CPU time (${wallMs} ms on the clock)`).toBeLessThan(1000);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["arguments-hidden"]);
  });
});
