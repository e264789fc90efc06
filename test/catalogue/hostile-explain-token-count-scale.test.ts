import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { explainPrompt } from "../../src/author/index.js";
import { renderSystemPrompt } from "../../src/index.js";
import { tokenCounter } from "../../src/tokens.js";
import { pinned, tempDir } from "../api/_helpers.js";

// After its render, `explain` counts the prompt's tokens with no deadline:
// each section, then the whole prompt, then its two cache prefixes and the
// stable prefix, the same megabytes five times. An untrusted project's
// context and rule files of words never repeated (3 MB: AGENTS.md, nine
// imports, five always rules, each under its cap) held `explain --untrusted
// --deadline 1000` for 35 s (20 s of CPU) after a render of 1 s; of prose
// 13 s, a trusted project's 7.3 MB of sections 11.6 s (the review's
// attack19). explain's counter now keeps each piece's count (cut where the
// encoder's pre-split cuts anyway, so the counts are exact): what it has
// counted once costs a lookup after.

/** `size` characters of words none of which is used twice (from `seed` on). */
function uniqueWords(seed: number, size: number): string {
  let text = "";
  for (let k = seed; text.length < size; k++) {
    text += `${k.toString(36)}q${((k * 7919) % 100_003).toString(36)}${k % 13 ? " " : "\n"}`;
  }
  return text;
}

describe("hostile repository: megabytes of text whose tokens explain counts", () => {
  it("counts the prompt's text about once, and exactly", async () => {
    const root = tempDir();
    const cwd = join(root, "project");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    let agents = `${uniqueWords(0, 200_000)}\n`;
    for (let i = 1; i <= 4; i++) {
      writeFileSync(join(cwd, `imp${i}.md`), `${uniqueWords(i * 100_000, 200_000)}\n`);
      agents += `@./imp${i}.md\n`;
    }
    writeFileSync(join(cwd, "AGENTS.md"), agents);
    const options = pinned(root, { projectTrusted: false, deadlineMs: 60_000 });
    await explainPrompt(pinned(tempDir())); // loads the encoder and what every render loads

    // One count of as much text of words the encoder has not seen.
    let started = performance.now();
    tokenCounter()(uniqueWords(10_000_000, 1_000_000));
    const once = performance.now() - started;

    started = performance.now();
    const report = await explainPrompt(options);
    const after = performance.now() - started - report.timing.gatherMs - report.timing.renderMs;
    const text = (await renderSystemPrompt(options)).text;
    expect(text.length).toBeGreaterThan(900_000);
    // Exact: the plain counter's count of the whole prompt.
    expect(report.total.tokens).toBe(tokenCounter()(text));
    // Before: five counts after the render, 3 times one here (the encoder keeps some words);
    // now 1.4 times.
    expect(after).toBeLessThan(2 * once + 300);
  }, 120_000);
});
