import { describe, expect, it } from "vitest";
import { escapeWrapperTags, HOST_ELEMENTS } from "../../src/_prompt-text.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev67c F4: a name joined over blanks (`<repository ˍ ˍ ˍ…`, U+02CD a letter read as
// `_`) keeps the key `repository`, a head of `repository_instructions`, for all its 256
// units; each step read the name again from `<`: 3.5 s of CPU per MiB. It is read once.

const NAMES = new Set([...HOST_ELEMENTS, "repository_instructions", "user_instructions", "rules"]);
/** Milliseconds of CPU for a megabyte: a few times what it takes (0.5 s) on a loaded machine. */
const BOUND_MS = 2_000;

describe("hostile repository: 1 MiB of names joined over blanks is escaped in linear time", () => {
  it.each([[" \u02cd"], [" -\u02cd"]])(
    "<repository%s…",
    async (step) => {
      const unit = `<repository${step.repeat(Math.ceil(250 / step.length))}x`;
      const text = unit.repeat(Math.ceil((1 << 20) / unit.length));
      const { cpuMs, value } = await cpuTimed(() => escapeWrapperTags(text, NAMES));
      expect(value.length).toBeGreaterThanOrEqual(text.length);
      expect(cpuMs).toBeLessThan(BOUND_MS);
    },
    60_000,
  );
});
