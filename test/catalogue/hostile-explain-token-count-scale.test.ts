import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { explainPrompt } from "../../src/author/index.js";
import { renderSystemPrompt } from "../../src/index.js";
import { tokenCounter } from "../../src/tokens.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// After its render, `explain` counts the prompt's tokens: each section, then
// the whole prompt, then its two cache prefixes and the stable prefix, the
// same megabytes five times. An untrusted project's context and rule files
// of words never repeated (3 MB: AGENTS.md, nine imports, five always
// rules, each under its cap) held `explain --untrusted --deadline 1000` for
// 35 s (20 s of CPU) after a render of 1 s (the review's attack19).
// explain's counter keeps each piece's count (cut where the encoder's
// pre-split cuts anyway, so the counts are exact): what it has counted once
// costs a lookup after. That first count still had no bound: 3.4-4.8 s for
// `explain --untrusted --deadline 1000`, and `render --max-tokens 100000`
// 3.1-4.5 s, the budget's count of the same text. Counting now stops being
// exact at the render's deadline: what is left is estimated from its length
// (explain marks the counts), over-counted for a budget, which then still
// never lets a prompt over its limit through.

/** `size` characters of words none of which is used twice (from `seed` on). */
function uniqueWords(seed: number, size: number): string {
  let text = "";
  for (let k = seed; text.length < size; k++) {
    text += `${k.toString(36)}q${((k * 7919) % 100_003).toString(36)}${k % 13 ? " " : "\n"}`;
  }
  return text;
}

/** An untrusted project of 3 MB of such words: AGENTS.md and nine imports, five always rules. */
function hostileProject(deadlineMs: number, extra = {}) {
  const root = tempDir();
  const cwd = join(root, "project");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  mkdirSync(join(cwd, ".cursor", "rules"), { recursive: true });
  mkdirSync(join(cwd, ".claude", "rules"), { recursive: true });
  let agents = `${uniqueWords(0, 200_000)}\n`;
  for (let i = 1; i <= 9; i++) {
    writeFileSync(join(cwd, `imp${i}.md`), `${uniqueWords(i * 100_000, 200_000)}\n`);
    agents += `@./imp${i}.md\n`;
  }
  writeFileSync(join(cwd, "AGENTS.md"), agents);
  for (let i = 1; i <= 3; i++) {
    const words = uniqueWords(1_000_000 + i * 100_000, 200_000);
    writeFileSync(
      join(cwd, ".cursor", "rules", `r${i}.mdc`),
      `---\nalwaysApply: true\n---\n${words}\n`,
    );
  }
  for (let i = 1; i <= 2; i++) {
    const words = uniqueWords(2_000_000 + i * 100_000, 200_000);
    writeFileSync(join(cwd, ".claude", "rules", `c${i}.md`), `${words}\n`);
  }
  return pinned(root, { projectTrusted: false, deadlineMs, ...extra });
}

const DEADLINE_MS = 1000;
/**
 * CPU past the deadline allowed: the counts left, estimated (a pass over the text), and what
 * the deadline's render leaves. Before the fix the count alone took 2-3 s of CPU here.
 */
const AFTER_DEADLINE_MS = 1000;

describe("hostile repository: megabytes of text whose tokens are counted after the render", () => {
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

    // One count of as much text of words the encoder has not seen, timed before the explain and
    // after it (other words): on a loaded machine the slower of the two is the one to compare with.
    const countOnce = (from: number) => {
      const at = performance.now();
      tokenCounter()(uniqueWords(from, 1_000_000));
      return performance.now() - at;
    };
    const before = countOnce(10_000_000);

    const started = performance.now();
    const report = await explainPrompt(options);
    const after = performance.now() - started - report.timing.gatherMs - report.timing.renderMs;
    const once = Math.max(before, countOnce(20_000_000));
    const text = (await renderSystemPrompt(options)).text;
    expect(text.length).toBeGreaterThan(900_000);
    // Exact: the plain counter's count of the whole prompt, nothing marked estimated.
    expect(report.total.tokens).toBe(tokenCounter()(text));
    expect(report.total.tokensEstimated).toBeUndefined();
    expect(report.diagnostics.map((d) => d.code)).not.toContain("tokens-estimated");
    // Before: five counts after the render, 3 times one here (the encoder keeps some words);
    // now 1.4 times.
    expect(after).toBeLessThan(2 * once + 300);
  }, 120_000);

  it("explain --deadline 1000 returns soon after it, the counts it could not finish marked", async () => {
    const options = hostileProject(DEADLINE_MS);
    await explainPrompt(pinned(tempDir()));
    const { cpuMs, value: report } = await cpuTimed(() => explainPrompt(options));
    // Gathered in time (0.4 s on an idle machine): the 3 MB are in the prompt to count.
    expect(report.steps.filter((s) => s.status === "timeout")).toEqual([]);
    expect(report.total.bytes).toBeGreaterThan(2_900_000);
    expect(cpuMs).toBeLessThan(DEADLINE_MS + AFTER_DEADLINE_MS);
    expect(report.total.tokensEstimated).toBe(true);
    expect(report.sections.find((s) => s.name === "project_rules")?.tokensEstimated).toBe(true);
    expect(report.diagnostics.map((d) => d.code)).toContain("tokens-estimated");
    // An estimate of the right size: the words are some 1.4 bytes a token.
    expect(report.total.tokens).toBeGreaterThan(1_500_000);
    expect(report.total.tokens).toBeLessThan(3_000_000);
  }, 120_000);

  it("render --max-tokens --deadline 1000 returns soon after it, and never over its budget", async () => {
    const maxPromptTokens = 100_000;
    const options = hostileProject(DEADLINE_MS, { maxPromptTokens });
    await renderSystemPrompt(pinned(tempDir(), { maxPromptTokens }));
    const { cpuMs, value: result } = await cpuTimed(() => renderSystemPrompt(options));
    expect(result.steps.filter((s) => s.status === "timeout")).toEqual([]);
    expect(result.budget?.initialTokens).toBeGreaterThan(1_000_000);
    expect(cpuMs).toBeLessThan(DEADLINE_MS + AFTER_DEADLINE_MS);
    expect(result.budget?.fits).toBe(true);
    expect(result.budget?.overCounted).toBe(true);
    expect(result.diagnostics.map((d) => d.code)).toContain("budget-tokens-estimated");
    // Over-counted, never under: the prompt's exact count is within the budget too.
    expect(tokenCounter()(result.text)).toBeLessThanOrEqual(maxPromptTokens);
    expect(result.budget?.tokens).toBeGreaterThanOrEqual(tokenCounter()(result.text));
  }, 120_000);
  it("a trusted project's sections that declare maxTokens: a plain render returns soon after its deadline", async () => {
    // A render counts only the sections that declare maxTokens, but a project's sections may all
    // declare it: seven of 1 MB held a plain `render --deadline 1000` 36 s (12 s of CPU).
    const root = tempDir();
    const sections = join(root, "project", ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    mkdirSync(join(root, "project", ".git"));
    for (let i = 1; i <= 3; i++) {
      const words = uniqueWords(3_000_000 + i * 200_000, 1_000_000);
      writeFileSync(
        join(sections, `big${i}.md`),
        `---\norder: ${200 + i}\nmaxTokens: 10\n---\n${words}\n`,
      );
    }
    await renderSystemPrompt(pinned(tempDir()));
    const options = pinned(root, { deadlineMs: DEADLINE_MS });
    const { cpuMs, value: result } = await cpuTimed(() => renderSystemPrompt(options));
    expect(result.steps.filter((s) => s.status === "timeout")).toEqual([]);
    expect(result.text.length).toBeGreaterThan(3_000_000);
    expect(cpuMs).toBeLessThan(DEADLINE_MS + AFTER_DEADLINE_MS);
    const over = result.diagnostics.filter((d) => d.code === "section-max-tokens");
    expect(over).toHaveLength(3);
    expect(over.at(-1)?.message).toContain("partly from its length");
  }, 120_000);
});
