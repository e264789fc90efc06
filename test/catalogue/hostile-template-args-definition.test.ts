import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandPromptTemplateResult } from "../../src/prompt-templates/index.js";
import { tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";
import { cli } from "../resources/_helpers.js";
import { placeOf } from "./_commonmark.js";
import { expandProjectTemplate, expectMovedOut } from "./_expand-project.js";

// Review rev52a (F2, low): a project's slash-command template put your words
// in a link reference definition, which rendered Markdown shows nothing of:
// `[//]: # ($ARGUMENTS)` (the usual Markdown comment) or `[x]: <> "$ARGUMENTS"`
// gave `/c do NOT touch the DB` as a definition, exit 0, no word. Now a
// placeholder on a line CommonMark reads as a link reference definition (its
// label, destination or title) starts a paragraph of its own after a blank
// line, with an `arguments-hidden` warning naming the file and the line.

const WORDS = "do NOT touch the DB";

function expand(content: string) {
  return expandProjectTemplate(content, `/t ${WORDS}`);
}

describe("hostile repository: a template cannot put your arguments in a link reference definition", () => {
  it("sysprompt expand: your words in a paragraph, a warning naming file and line", async () => {
    const root = tempDir();
    mkdirSync(join(root, "home", ".pi", "agent"), { recursive: true });
    mkdirSync(join(root, "project", ".pi", "prompts"), { recursive: true });
    const c = join(root, "project", ".pi", "prompts", "c.md");
    writeFileSync(c, "---\ndescription: t\n---\nReview the change.\n\n[//]: # ($ARGUMENTS)\n");
    const out = await cli(root, ["expand", "--agent-dir", "ROOT/home/.pi/agent", `/c ${WORDS}`]);
    expect(out.code).toBe(0);
    expect(placeOf(out.stdout, WORDS).block).toBe("paragraph");
    expect(out.stderr).toContain(`warning ${c}:6 [arguments-hidden] /c`);
  });

  it("the library: each part of a definition, in containers, over two lines", () => {
    for (const content of [
      "Review.\n\n[//]: # ($ARGUMENTS)\n",
      'Review.\n\n[x]: <> "$ARGUMENTS"\n',
      "[x]: <> '$ARGUMENTS' \n",
      "[$ARGUMENTS]: /u\n",
      "[x]: /$ARGUMENTS\n",
      "[a]: /a\n[b]: /b ($ARGUMENTS)\n",
      "> [x]: # ($ARGUMENTS)\n",
      "- [x]: # ($ARGUMENTS)\n",
      '[x]: /u\n"$ARGUMENTS"\n',
      "[x]:\n$ARGUMENTS\n",
      "> [x]:\n> $ARGUMENTS\n",
    ]) {
      expectMovedOut(expand(content), content);
    }
    // Not a definition: after a link, a paragraph's line, a label with no colon, a title with more after it
    // (a link's destination, `[see]($ARGUMENTS)`, is moved out since rev57b F4).
    for (const content of [
      "[see](/u) $ARGUMENTS\n",
      "Notes\n[x]: # ($ARGUMENTS)\n",
      "[a] b $ARGUMENTS\n",
      "[x]: /u 't' $ARGUMENTS\n",
    ]) {
      const out = expand(content);
      expect(out.diagnostics, content).toEqual([]);
      expect(out.text, content).toContain(WORDS);
    }
  });

  it("linear: 30,000 placeholders on a definition's line, 30,000 lines of one paragraph", async () => {
    // CPU time, 0.19-0.21 s a shape here; the clock said 0.3 s idle and 1.5 s at a load of 8,
    // which failed a bound of 1 s on it. CI machines are up to 2x slower.
    expandPromptTemplateResult("/t x", [{ name: "t", content: "[a]: # ($1)", source: "project" }]);
    for (const [content, codes] of [
      [`[a]: # (${"$1 ".repeat(30_000)})`, ["arguments-hidden"]],
      ["[a]: /u '$1'\n".repeat(30_000), ["arguments-hidden"]],
      // Each line judged, none a definition: the paragraph's text is never read whole (60,000 lines took 81 s when it was).
      ["[a]: /u '$1' x\n".repeat(30_000), []],
    ] as const) {
      const {
        cpuMs,
        wallMs,
        value: out,
      } = await cpuTimed(() =>
        expandPromptTemplateResult("/t x", [{ name: "t", content, source: "project" }]),
      );
      expect(cpuMs, `CPU time (${wallMs} ms on the clock)`).toBeLessThan(1000);
      expect(out.diagnostics.map((d) => d.code)).toEqual(codes);
    }
  });
});
