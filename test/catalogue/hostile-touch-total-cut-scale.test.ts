import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_TOTAL_CONTEXT_BYTES } from "../../src/gather/context/_context-total.js";
import { callContext } from "../../src/hook/run.js";
import { chain } from "./_touch-chain.js";

// The hook's pass at its real total (2 MiB, nine files of 256 KiB on one
// path): the first call recorded the file its total left out as given, and
// its memo stamped that folder as giving nothing new, so no later call gave
// it. See hostile-touch-total-cut.test.ts.

describe("hostile repository: more instructions on a touched path than one hook call's total", () => {
  it("through the hook: the next call brings what the first one's total left out", async () => {
    // 256 KiB each (the cap of one file): nine are more than the 2 MiB total.
    const size = 256 * 1024;
    const count = Math.ceil(DEFAULT_MAX_TOTAL_CONTEXT_BYTES / size) + 1;
    // AGENTS.override.md: opencode reads its nested AGENTS.md itself, not this name.
    const p = chain(count, size, "AGENTS.override.md");
    const where = { env: { XDG_CACHE_HOME: join(p.base, "cache") }, home: p.home };
    // opencode's plugin (the hook's path, its text kept whole, as Gemini CLI's was before it was held to 9,500 characters).
    const call = { sessionId: "s-1", cwd: p.cwd, tool: "read", input: { filePath: p.path } };
    const given = async () =>
      [...((await callContext("opencode", call, where)).text ?? "").matchAll(/Level (\d+)\. x/g)]
        .map((m) => Number(m[1]))
        .sort((a, b) => a - b);
    // Eight whole, from the deepest up; l0 cut to its first bytes.
    expect(await given()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await given()).toEqual([0]);
    expect(await given()).toEqual([]);
  }, 60_000);
});
