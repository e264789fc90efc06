import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { chain } from "./_touch-chain.js";

// A touch call cut by its total (2 MiB by default) recorded every file it
// found as given, the ones it had cut, even down to the marker line: their
// text was never sent, by that call or any later one. Only a file sent
// whole is recorded now, so a later call gives the rest; a file larger than
// the total on its own is recorded cut, since no call could give more.
// hostile-touch-total-cut-scale.test.ts (the slow tier) has the hook's pass,
// at the real 2 MiB total.

const levels = (files: readonly { content: string }[]) =>
  files.map((f) => Number(/^Level (\d+)\./.exec(f.content)?.[1] ?? -1));

describe("hostile repository: more instructions on a touched path than one call's total", () => {
  it("the files the total left out come with the next call of the session", async () => {
    const p = chain(3, 600);
    const delivered = new Set<string>();
    const call = () =>
      loadContextForPaths([p.path], { cwd: p.cwd, home: p.home, maxTotalBytes: 1000, delivered });
    // The deepest first: l2 whole, l1 cut in part, l0 only its marker.
    const first = await call();
    expect(first.files.map((f) => f.content.replace(/x+/, "x"))).toEqual([
      expect.stringMatching(/^\[… 599 B \(599 bytes\) more of this file left out/),
      expect.stringMatching(/^Level 1\. x\n\[… 198 B/),
      "Level 2. x",
    ]);
    // l1 whole, l0 cut in part; then l0 whole; then nothing.
    const second = await call();
    expect(second.files.map((f) => f.content.replace(/x+/, "x"))).toEqual([
      expect.stringMatching(/^Level 0\. x\n\[… 198 B/),
      "Level 1. x",
    ]);
    expect(levels((await call()).files)).toEqual([0]);
    expect((await call()).files).toEqual([]);
  });

  it("a file larger than the total on its own is given cut, once", async () => {
    const p = chain(1, 1500);
    const delivered = new Set<string>();
    const call = () =>
      loadContextForPaths([p.path], { cwd: p.cwd, home: p.home, maxTotalBytes: 1000, delivered });
    const first = await call();
    expect(first.files.map((f) => f.content.replace(/x+/, "x"))).toEqual([
      expect.stringMatching(/^Level 0\. x\n\[… 499 B/),
    ]);
    expect((await call()).files).toEqual([]);
  });
});
