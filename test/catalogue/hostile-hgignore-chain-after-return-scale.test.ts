import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { hgChain } from "./_hg-chain.js";

// rev88a F1: the workspace tree asked every Mercurial working copy above its root for its ignore
// files without the render's signal, so a chain of nested working copies, each whose `.hg/hgrc`
// names one 250 KiB glob file at the bottom, was compiled copy by copy after the render had
// returned at its deadline: 12.5 s of CPU and 1.36 GB in the host for 80 copies. Counted here as
// the lines the reader parses (`parseRegex`, one a pattern) once the render has returned.

const parsed = { lines: 0 };

vi.mock("../../src/repo-files/linear-regex.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/repo-files/linear-regex.js")>();
  return {
    ...actual,
    parseRegex: (...args: Parameters<typeof actual.parseRegex>) => {
      parsed.lines++;
      return actual.parseRegex(...args);
    },
  };
});

const COPIES = 24;

function chain() {
  const { base, deepest } = hgChain(COPIES);
  writeFileSync(join(deepest, "AGENTS.md"), "# proj\n");
  mkdirSync(join(base, "home", ".pi", "agent"), { recursive: true });
  return { base, deepest };
}

describe("hostile repository: a chain of Mercurial working copies compiles nothing after the render returned", () => {
  it("the tree's look-up of the copies above its root hears the deadline", async () => {
    const { base, deepest } = chain();
    const render = (cwd: string) =>
      renderSystemPrompt({
        cwd,
        home: join(base, "home"),
        agentDir: join(base, "home", ".pi", "agent"),
        env: {},
        workspaceTree: true,
        deadlineMs: 1000,
      });
    // The modules loaded first, by a render of a project of nothing, so the deadline falls in the chain.
    const plain = join(base, "plain");
    mkdirSync(plain);
    writeFileSync(join(plain, "AGENTS.md"), "# plain\n");
    await render(plain);
    const result = await render(deepest);
    const atReturn = parsed.lines;
    // The chain's work took about 0.15 s of CPU a copy before the fix (3.6 s in all); 3 s of
    // wall time let it show under load, and nothing is left to run once the signal is heard.
    await sleep(3000);
    const after = parsed.lines - atReturn;
    expect(result.text).toContain("# proj");
    // Since rev89h F3 the copies share one total, so the chain may be cut before the deadline
    // (no `step-timeout` then); either way nothing is parsed after the render returned.
    // A copy's file is parsed up to its budget, some 2,700 lines: before the fix 13,455 lines (five
    // copies) were parsed here at a load of 18, none after it.
    expect(after).toBeLessThan(1000);
  });
});
