import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  expandPromptTemplate,
  expandPromptTemplateResult,
  MAX_EXPANDED_CHARS,
  substituteArgs,
} from "../../src/prompt-templates/index.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "../cli/_run.js";

// A template repeats `$ARGUMENTS` as often as it likes, and the command's
// arguments are as long as the user typed: the expansion is bounded all the
// same, with an error that says what was too large, never a RangeError or
// hundreds of megabytes.

const BOMB = { name: "bomb", content: "$ARGUMENTS ".repeat(100_000), filePath: "/p/bomb.md" };

describe("the expansion of a prompt template is capped", () => {
  it("substituteArgs gives undefined past the cap, the expansion at or under it", () => {
    expect(substituteArgs("$1$1", ["ab"], 4)).toBe("abab");
    expect(substituteArgs("$1$1x", ["ab"], 4)).toBeUndefined();
    expect(substituteArgs("$ARGUMENTS ".repeat(100_000), ["x".repeat(20_000)])).toBeUndefined();
  });

  it("a 20 KB argument into 100,000 placeholders: an error diagnostic, the command left as typed", () => {
    const text = `/bomb ${"x".repeat(20_000)}`;
    const result = expandPromptTemplateResult(text, [BOMB]);
    expect(result).toEqual({
      text,
      diagnostics: [
        {
          level: "error",
          code: "expansion-too-large",
          message: `/bomb expands to more than ${MAX_EXPANDED_CHARS} characters (its placeholders times the arguments); left unexpanded, shorten the arguments or the template`,
          path: "/p/bomb.md",
        },
      ],
    });
    expect(expandPromptTemplate(text, [BOMB])).toBe(text);
  });

  it("a small expansion is unchanged and has no diagnostics", () => {
    expect(expandPromptTemplateResult("/bomb a", [{ ...BOMB, content: "[$1]" }])).toEqual({
      text: "[a]",
      diagnostics: [],
    });
  });

  it("sysprompt expand: the error on stderr, exit 1, and no megabytes on stdout", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project", ".pi", "prompts"), { recursive: true });
    // Just under the 1 MiB a prompt-template file may have.
    writeFileSync(join(root, "project", ".pi", "prompts", "bomb.md"), "$1 ".repeat(300_000));
    const out = await cli(root, ["expand", `/bomb ${"y".repeat(2_000)}`], false);
    expect(out.code).toBe(1);
    expect(out.stdout.length).toBeLessThan(3_000);
    expect(out.stderr).toBe(
      `error ${join(root, "project", ".pi", "prompts", "bomb.md")} [expansion-too-large] /bomb expands to more than ${MAX_EXPANDED_CHARS} characters (its placeholders times the arguments); left unexpanded, shorten the arguments or the template\n`,
    );
  });
});
