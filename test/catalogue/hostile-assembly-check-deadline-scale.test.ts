import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { markupAsTextTold } from "../../src/_fence.js";
import { elementText, OWNER_MARK } from "../../src/_prompt-text.js";
import { preparePrompt, renderPrepared } from "../../src/render-system-prompt.js";
import {
  CHECK_BUDGET_CHARS,
  CHECK_TEXT_CHARS,
  type CheckBudget,
  OVER_BUDGET_WORDS,
  withCheckBudget,
} from "../../src/sections/html-reading.js";
import type { Diagnostic } from "../../src/types.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Attack review rev91b F1: 200 always-apply `.cursor/rules/rN.mdc` of 2,600 characters of
// `- <x>N` lines each fit the render's 512 KiB check budget, so each got the whole closers check
// (`closedOpenToYours` from the assembly's `alwaysEntry`): 2.0-2.7 s of CPU at `--deadline 1000`,
// the same at `--deadline 60000`. The assembly's checks heard no deadline, unlike the project's
// sections (rev88b F1). Now the render's check budget holds the render's stop time (`renderStop`,
// the one its sections stop at): past it the budget is spent, and each text after takes the
// instant fallback the budget has when its characters run out (every `<` written `&lt;`, the
// `over-budget` warning). And a check is charged its length and a text's fixed work
// (`CHECK_TEXT_CHARS`), not its length only.

// The budgets the preparation and the render spend: the assembly's is the preparation's.
const budgets: CheckBudget[] = [];
vi.mock("../../src/sections/html-reading.js", async (original) => {
  const real = await original<typeof import("../../src/sections/html-reading.js")>();
  return {
    ...real,
    withCheckBudget: <T>(run: () => T, chars?: number | CheckBudget): T => {
      if (typeof chars === "object") budgets.push(chars);
      return real.withCheckBudget(run, chars);
    },
  };
});

/** `count` rule texts of about 2,600 characters of `- <x>N` lines (the review's shape). */
function rules(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `- <x>${i}\n`.repeat(Math.ceil(2600 / 8)));
}

const NAMES = new Set([OWNER_MARK, "rule"]);

describe("hostile repository: the assembly's closers check past the render's stop time", () => {
  it("past the stop time, every text after takes the budget's instant fallback, warned as such", () => {
    const texts = rules(10);
    // A clock that passes the stop time at its 4th reading: mid-way through the texts.
    let readings = 0;
    const budget: CheckBudget = {
      left: CHECK_BUDGET_CHARS,
      stop: { at: 4, clock: () => ++readings },
    };
    const said: Diagnostic[] = [];
    const out = withCheckBudget(
      () =>
        texts.map((t, i) =>
          elementText(
            t,
            NAMES,
            markupAsTextTold("rule-markup-as-text", `r${i}`, (d) => said.push(d)),
          ),
        ),
      budget,
    );
    // The first texts were checked: their markup kept, no word.
    expect(out[0]).toContain("<x>0");
    // Past the stop, the budget is spent: the rest have every `<` written as text, each said.
    expect(budget.left).toBe(0);
    const late = out.filter((t) => !t.includes("<"));
    expect(late.length).toBeGreaterThanOrEqual(texts.length - 4);
    expect(out.at(-1)).toContain("&lt;x>9");
    expect(said.map((d) => d.path)).toEqual(
      texts.flatMap((_, i) => (out[i]?.includes("<") ? [] : [`r${i}`])),
    );
    for (const d of said) expect(d.message).toBe(OVER_BUDGET_WORDS);
    // Once spent, the clock is read no more.
    expect(readings).toBeLessThanOrEqual(5);
  });

  it("a check is charged its length and a text's fixed work", () => {
    const [text] = rules(1) as [string];
    const budget: CheckBudget = { left: CHECK_BUDGET_CHARS };
    withCheckBudget(() => elementText(text, NAMES), budget);
    expect(CHECK_BUDGET_CHARS - budget.left).toBeGreaterThanOrEqual(text.length + CHECK_TEXT_CHARS);
  });

  it("the preparation's and the render's check budgets hold the render's stop time", async () => {
    const root = tempDir();
    writeFiles(root, {
      "home/.pi/agent/AGENTS.md": "Mine.\n",
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.cursor/rules/a.mdc": "---\nalwaysApply: true\n---\nPress <kbd>C</kbd>.\n",
    });
    budgets.length = 0;
    const prepared = await preparePrompt({
      cwd: join(root, "project"),
      home: join(root, "home"),
      agentDir: join(root, "home/.pi/agent"),
      deadlineMs: 5000,
    });
    const deadline = prepared.deadline as number;
    expect(budgets.length).toBeGreaterThan(0);
    for (const b of budgets) expect(b.stop?.at).toBeGreaterThanOrEqual(deadline);
    const r = renderPrepared(prepared);
    expect(r.text).toContain("Press <kbd>C</kbd>.");
    const render = budgets.at(-1);
    expect(render?.stop?.at).toBeGreaterThanOrEqual(deadline);
  });
});
