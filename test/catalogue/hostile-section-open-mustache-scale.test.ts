import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev50b F2 (high; fixed by blk50's rewrite of the placing, this is its
// guard). A trusted project's `.pi/sections/zz.md` of `{{` then a million
// spaces (blank lines, tabs) held a render for minutes of CPU (a regular
// expression quadratic in the run of white space after the `{{`); since
// db6e6bc some tenths of a second. The run's cost over the same render
// without that section must stay a fraction of a second.

const SIZE = 1_000_000;

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

async function renderWith(section: string | undefined) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "PROJECT-MARKER\n",
    "agent/AGENTS.md": "MY-RULES-MARKER\n",
    ...(section === undefined ? {} : { "project/.pi/sections/zz.md": section }),
  });
  const start = process.cpuUsage();
  const result = await renderSystemPrompt(
    pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
  );
  return { result, seconds: cpuSeconds(start) };
}

describe("hostile-section-open-mustache-scale: `{{` then a megabyte of white space costs a linear render", () => {
  it.each([
    ["spaces", " "],
    ["blank lines", "\n"],
    ["tabs", "\t"],
    ["CRLF blank lines", "\r\n"],
  ])(
    "%s: rendered, your texts in, within half a second of CPU over the plain render",
    async (_, unit) => {
      await renderWith(undefined); // warm
      const plain = await renderWith(undefined);
      const run = unit.repeat(Math.ceil(SIZE / unit.length));
      const hostile = await renderWith(`---\norder: 500\n---\n{{${run}`);
      expect(hostile.result.text).toContain("MY-RULES-MARKER");
      expect(hostile.result.text).toContain("PROJECT-MARKER");
      expect(hostile.seconds - plain.seconds).toBeLessThan(0.5);
    },
  );
});
