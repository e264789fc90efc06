import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_PROMPT_CHARS } from "../../src/engine/limits.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Each section is capped as it renders (8 MiB); the whole prompt was not:
// 120 trusted sections under that cap made a prompt past the longest string
// V8 builds, and the final join threw `RangeError: Invalid string length`.
// Three sections of 4.5 MB each (a partial of 550 KiB called 8 times: each
// level's finishing step reads its text again, 8 MiB a render and 16 MiB a
// prompt, so a partial doubled through levels is stopped by that count
// first) stand for them: what does not fit is left out, with one located error.

const CALLS = 8;

describe("hostile repository: the whole prompt is capped", () => {
  it("sections past the prompt's cap are left out with one error; the rest render", async () => {
    const root = tempDir();
    const pi = join(root, "project", ".pi");
    mkdirSync(join(pi, "partials"), { recursive: true });
    mkdirSync(join(pi, "sections"), { recursive: true });
    writeFileSync(join(pi, "partials", "p0.md"), "x".repeat(1100 * 2 ** 9));
    for (const name of ["big1", "big2", "big3"]) {
      writeFileSync(
        join(pi, "sections", `${name}.md`),
        `---\norder: 900\n---\n${"{{> p0}}".repeat(CALLS)}\n`,
      );
    }
    const result = await renderSystemPrompt(pinned(root));
    expect(result.text.length).toBeLessThanOrEqual(MAX_PROMPT_CHARS);
    expect(result.sections.map((s) => s.name).filter((n) => n.startsWith("big"))).toEqual(["big1"]);
    expect(
      result.diagnostics
        .filter((d) => d.code === "prompt-too-large")
        .map((d) => [d.level, d.message, d.path]),
    ).toEqual([
      [
        "error",
        "the prompt would be over 8 MiB of text, every section together; left out: big2, big3",
        join(pi, "sections", "big2.md"),
      ],
    ]);
  }, 120_000);
});
