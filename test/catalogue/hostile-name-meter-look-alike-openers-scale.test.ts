import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  escapeWrapperTags,
  type NameBudget,
  OWNER_MARK,
  ownTextNames,
  repositoryNames,
  withNameBudget,
  withNameWork,
} from "../../src/_prompt-text.js";
import { MAX_PROMPT_NAME_READ } from "../../src/engine/limits.js";
import { preparePrompt, renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev92b F1: `＜repository` + U+00A0 (a fullwidth look-alike of `<`, a word, a
// no-break space the reader joins a name over) repeated cost the element-name reader 1.4-2.2 µs a
// unit of its meter (calibrated at some 0.3 µs): only the name's length was charged, not the
// opener's run, its joined read and its tails and heads looked up. Eight nested `AGENTS.md` and
// four always rules of 250 KB of it held `render --deadline 1000` 2.4-2.6 s of CPU, the meter
// never spent, the assembly's meter deaf to the deadline. Now each opener read is charged
// `OPENER_NAME_UNITS` on top of its name, and the assembly's meter (`withNameBudget`) holds the
// render's stop time: past it, the repository's texts are escaped whole, as when it is spent.

/** The review's shape: `unit` repeated to `size` characters, a letter every 97 repeats. */
function lookAlikes(size: number, seed = 0, unit = "\uff1crepository\u00a0"): string {
  let text = "";
  for (let i = 1; text.length < size; i++) {
    text += unit;
    if (i % 97 === 0) text += String.fromCharCode(97 + (seed % 26));
  }
  return text;
}

// The name budgets the preparation spends.
const budgets: NameBudget[] = [];
vi.mock("../../src/_prompt-text.js", async (original) => {
  const real = await original<typeof import("../../src/_prompt-text.js")>();
  return {
    ...real,
    withNameBudget: <T>(budget: NameBudget, run: () => T): T => {
      budgets.push(budget);
      return real.withNameBudget(budget, run);
    },
  };
});

const NAMES = repositoryNames();

/** Far above the render's CPU on a loaded machine (0.5-1.5 s), below what it was (2.4-3.6 s, on 3 MB). */
const BOUND_MS = 6000;

describe("hostile repository: look-alike openers before an element's name", () => {
  it("each look-alike opener the reader reads is charged on top of its name", () => {
    for (const unit of ["\uff1crepository\u00a0", "\uff1cend ", "\u2039hook "]) {
      const text = lookAlikes(50_000, 0, unit);
      const openers = text.split(unit.slice(0, 1)).length - 1;
      let units = 0;
      withNameWork(
        (n) => {
          units += n;
        },
        () => escapeWrapperTags(text, NAMES),
      );
      // Before: 7.3 units an opener of the first, 2 of the second.
      expect(units / openers).toBeGreaterThanOrEqual(20);
    }
  });

  it("past the render's stop time, the repository's texts after are escaped whole, said each", () => {
    const names = new Set([...NAMES, OWNER_MARK]);
    const texts = Array.from({ length: 6 }, (_, i) => `T${i} <b>x</b> ${lookAlikes(2000, i)}`);
    // A clock that passes the stop time at its 3rd reading: the third text.
    let readings = 0;
    const budget: NameBudget = {
      left: MAX_PROMPT_NAME_READ,
      untold: 0,
      stop: { at: 3, clock: () => ++readings },
    };
    const told: number[] = [];
    const out = withNameBudget(budget, () => [
      ...texts.map((t, i) => escapeWrapperTags(t, names, false, undefined, () => told.push(i))),
      escapeWrapperTags("Your <b>own</b> text.", ownTextNames(NAMES)),
    ]);
    expect(out[0]).toContain("T0 <b>x</b>");
    expect(out[1]).toContain("T1 <b>x</b>");
    for (let i = 2; i < texts.length; i++) {
      expect(out[i]).toContain(`T${i} &lt;b>x&lt;/b>`);
      expect(out[i]).not.toContain("\uff1c");
    }
    expect(told).toEqual([2, 3, 4, 5]);
    // Your text is read as before; the units were not spent (a render given the prompt again has its own stop).
    expect(out.at(-1)).toBe("Your <b>own</b> text.");
    expect(budget.left).toBeGreaterThan(0);
    // Once past, the clock is read no more.
    expect(readings).toBe(3);
  });

  it("a text read as the stop time passes stops there and is escaped whole", () => {
    const names = new Set([...NAMES, OWNER_MARK]);
    let readings = 0;
    const budget: NameBudget = {
      left: MAX_PROMPT_NAME_READ,
      untold: 0,
      stop: { at: 2, clock: () => ++readings },
    };
    let told = 0;
    const out = withNameBudget(budget, () =>
      escapeWrapperTags(`${lookAlikes(250_000)} <b>end</b>`, names, false, undefined, () => told++),
    );
    expect(out).toContain("&lt;b>end&lt;/b>");
    expect(told).toBe(1);
    expect(readings).toBe(2);
  });

  it("the preparation's name meter holds the render's stop time", async () => {
    const root = tempDir();
    writeFiles(root, {
      "home/.pi/agent/AGENTS.md": "Mine.\n",
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": "Press <kbd>C</kbd>.\n",
    });
    budgets.length = 0;
    const prepared = await preparePrompt({
      cwd: join(root, "project"),
      home: join(root, "home"),
      agentDir: join(root, "home/.pi/agent"),
      deadlineMs: 5000,
    });
    expect(budgets.length).toBeGreaterThan(0);
    for (const b of budgets) expect(b.stop?.at).toBeGreaterThanOrEqual(prepared.deadline as number);
    expect(prepared.data.contextFiles.map((f) => f.content).join("")).toContain("<kbd>C</kbd>");
  });

  it("a render of 1.5 MB of the shape spends the meter, escapes the rest whole, said by file", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "home/.pi/agent/AGENTS.md": "USER-RULE-MARKER: be careful.\n",
      "project/.git/HEAD": "ref: refs/heads/main\n",
    };
    let dir = "project";
    for (let l = 0; l < 6; l++) {
      files[`${dir}/AGENTS.md`] = `# Level ${l} <b>kept-${l}</b>\n\n${lookAlikes(250_000, l)}\n`;
      dir = `${dir}/d${l}`;
    }
    files[`${dir}/x.ts`] = "";
    writeFiles(root, files);
    const { cpuMs, value: r } = await cpuTimed(() =>
      renderSystemPrompt({
        cwd: join(root, dir),
        home: join(root, "home"),
        agentDir: join(root, "home/.pi/agent"),
        projectTrusted: false,
        deadlineMs: 60_000,
      }),
    );
    // Before: the meter was charged some 900,000 units of its 2 Mi for 2-3 s of work, nothing said.
    const whole = r.diagnostics.filter((d) => d.code === "prompt-render-work");
    expect(whole.length).toBeGreaterThan(0);
    expect(whole[0]?.path).toMatch(/AGENTS\.md$/);
    for (let l = 0; l < 6; l++) expect(r.text).toMatch(new RegExp(`Level ${l} (<|&lt;)b>kept`));
    expect(r.text).toContain("USER-RULE-MARKER");
    expect(cpuMs).toBeLessThan(BOUND_MS);
  }, 120_000);
});
