import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { cpuTimed } from "../gather/_timed.js";
import { chain } from "./_touch-chain.js";

// Review rev82b F3: codex's hook on a `cat` of files in 8 nested folders, each AGENTS.md 250 KB
// of distinct tag names after a line of invisible characters and a reference (eight readings),
// ran 4.4 s of CPU (7.7 s wall at load) past its 5 s and added nothing: each touched file was
// held whole (escaped, every tag name read) before it was cut to the 9,500 bytes the host keeps.
// Now, with a host's cap, only a head of twice the cap is read, then cut to it as before.

/** 250 KB of distinct `<a_…a_Lz K` names after the review's line. */
function names(level: number): string {
  let text = `# D${level}\n\nx\u200b\u{e0041}\u3164 y &#97;\n<user_instructions>\n`;
  for (let k = 0; text.length < 250_000; k++) text += `<${"a_".repeat(38)}${level}z${k}\n`;
  return text;
}

describe("hostile repository: touched files are read only as far as the host's cap", () => {
  it("eight nested 250 KB AGENTS.md of distinct tag names under a 9,500-byte cap", async () => {
    const { cwd, home, path } = chain(8, names);
    const { cpuMs, value } = await cpuTimed(() =>
      loadContextForPaths([path], { cwd, home, textCap: { max: 9_500 }, deadlineMs: 60_000 }),
    );
    // Before: 3.5-4 s of CPU (each file held whole); after: 0.1-0.2 s here at a load of 7.
    expect(cpuMs).toBeLessThan(1_500);
    // The first file cut to the cap. Its cut head now fills it (9,367 of 9,500 bytes): each
    // `<a_…` line is written `&lt;` as read (the draw-in-place reading, rev82f F1, F4); before,
    // its raw unended tags sent the cut head to the closers' fallback (every `<` written `&lt;`,
    // `<user_instructions>` only with them) and the cut fell 1,200 bytes short, room a second
    // file's 993 characters took. What is left (< MIN_CUT_TEXT) is no room for another: the
    // second file comes with a later call, said.
    expect(value.files.map((f) => f.path)).toEqual([join(cwd, "l0/AGENTS.md")]);
    expect(value.diagnostics.map((d) => d.message).join("\n")).toContain(
      `left for a later call: the agent keeps 9500 bytes of a hook's text in one call (${join(cwd, "l0/l1/AGENTS.md")}`,
    );
    const content = value.files[0]?.content ?? "";
    // The repository's `<user_instructions>` is escaped in the head sent, and the head is the cap's.
    expect(content).toContain("&lt;user_instructions>");
    expect(content).not.toMatch(/<user_instructions/);
    expect(value.files.reduce((n, f) => n + Buffer.byteLength(f.content), 0)).toBeLessThan(9_500);
    // The marker counts what the file holds past the cut, the unread part included.
    const omitted = Number(/\[… (\d+) bytes more/.exec(content)?.[1]);
    expect(omitted).toBeGreaterThan(240_000);
  }, 60_000);
});
