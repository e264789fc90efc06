import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { hgChain } from "./_hg-chain.js";

// fx92d (the signal made required in ReachOptions, fx90e's known limit): a file you name into an
// untrusted project (`--untrusted --append-system-prompt ./notes.md`) was read through a reach
// built without the render's signal (src/locate/text-or-path.ts), so its private-path check
// (its link to `my-notes.md` is checked) compiled every Mercurial working copy's ignore files above it, up to the total budget, after
// the deadline had fired: a chain of nested copies each naming one 250 KiB glob file held the
// render 3.6 s at a 300 ms deadline. Counted here as the lines parsed (`parseRegex`, one a
// pattern) once the deadline has passed.

const parsed = { lines: 0, late: 0, deadlineAt: Number.POSITIVE_INFINITY };

vi.mock("../../src/repo-files/linear-regex.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/repo-files/linear-regex.js")>();
  return {
    ...actual,
    parseRegex: (...args: Parameters<typeof actual.parseRegex>) => {
      parsed.lines++;
      if (performance.now() > parsed.deadlineAt) parsed.late++;
      return actual.parseRegex(...args);
    },
  };
});

const COPIES = 40;
const DEADLINE_MS = 150;

describe("hostile repository: a file you name into an untrusted project is checked within the deadline", () => {
  it("its private-path check hears the render's signal", async () => {
    const { base, deepest } = hgChain(COPIES);
    writeFileSync(join(deepest, "AGENTS.md"), "# proj\n");
    // A link within the project: its target is checked against the project's ignore rules.
    writeFileSync(join(deepest, "my-notes.md"), "my notes\n");
    symlinkSync("my-notes.md", join(deepest, "notes.md"));
    mkdirSync(join(base, "home", ".pi", "agent"), { recursive: true });
    const render = (cwd: string, deadlineMs: number, appendSystemPrompt?: string) =>
      renderSystemPrompt({
        cwd,
        home: join(base, "home"),
        agentDir: join(base, "home", ".pi", "agent"),
        env: {},
        projectTrusted: false,
        deadlineMs,
        ...(appendSystemPrompt === undefined ? {} : { appendSystemPrompt }),
      });
    // The modules loaded first, by a render of a project of nothing.
    const plain = join(base, "plain");
    mkdirSync(plain);
    writeFileSync(join(plain, "my-notes.md"), "plain notes\n");
    symlinkSync("my-notes.md", join(plain, "notes.md"));
    await render(plain, 5000, "./notes.md");
    parsed.deadlineAt = performance.now() + DEADLINE_MS;
    const outcome = await render(deepest, DEADLINE_MS, "./notes.md").then(
      (result) => ({ text: result.text, error: undefined }),
      (error: unknown) => ({ text: undefined, error: String(error) }),
    );
    // The notes in time, or the file refused, named (for the deadline, or the copy its signal cut):
    // never the chain's whole budget compiled after it. Before the fix both copies' budgets (5,382
    // lines) were parsed, 3,980-5,382 of them past the deadline, and a render at a 300 ms deadline
    // returned after 3.6 s; after it, at most the one file in flight as the signal fires (its
    // budget is 2,691 lines: 926 at 300 ms, 0.76 s).
    expect(parsed.late).toBeLessThan(3000);
    if (outcome.error !== undefined)
      expect(outcome.error).toMatch(/notes\.md.*(deadline|not read whole)/s);
    else expect(outcome.text).toContain("my notes");
  });
});
