import { describe, expect, it } from "vitest";
import { escapeWrapperTags, printedLength } from "../../src/_prompt-text.js";
import { cpuTimed } from "../gather/_timed.js";
import { HOST_NAMES as NAMES, tagged } from "./_forged-tags.js";

// Review rev60c F4: a chat template's tokens are looked for in each reading of a text
// (tag characters as letters and left out, separators left out), each place mapped back.
// Each reading is one pass: a text of hidden characters around brackets and openers costs
// a few passes, never a pass per token.

const UNITS = [
  "[IN\u200bST] ",
  "]~\u200bb]~b]",
  "<\u200b<SYS>>",
  tagged("<|im_start|>"),
  tagged("[INST]"),
  `<${tagged("<|")}`,
  "\u{1f469}\u200d\u{1f469}\u200d\u{1f467} [x] ",
  `<SPECIAL_${"1".repeat(4000)}`,
];

describe("hostile repository: chat template tokens in every reading, at scale", () => {
  it("256 KiB of each fill is escaped and counted in a bounded time", async () => {
    for (const unit of UNITS) {
      const text = unit.repeat(Math.ceil((256 << 10) / unit.length));
      const { cpuMs } = await cpuTimed(async () => {
        escapeWrapperTags(text, NAMES);
        printedLength(text, "element");
      });
      // Some 150-220 ms each on a loaded machine (main: about half, one reading); a pass per
      // token would take seconds. CPU time (see _timed.ts).
      expect({ unit, slow: cpuMs > 1000 }).toEqual({ unit, slow: false });
    }
  }, 60_000);
});
