import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { geminiCut } from "../../src/hook/gemini-cut.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Review rev50b F3 (HIGH): a project's `.gemini/settings.json` whose threshold is a string of
// `${${${…` held `sysprompt hook gemini-cli` for minutes on every shell call (256 KiB: 20 s of
// CPU, far past the hook's 5 s): `/\$(?:\w|\{[^}]+\})/` scanned to the end of the text from
// every unclosed `${`. Any `${` now means "cannot be judged" (one step a character), and a
// threshold string longer than 64 characters is not scanned at all.

/** The settings file's cap (MAX_SETTINGS_BYTES) less room for the JSON around the value. */
const RUNS = (1024 * 1024 - 64) / 2;

function cpuMs(work: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  return work().then(() => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  });
}

async function judged(value: string) {
  const base = tempDir();
  writeFiles(base, {
    "p/.gemini/settings.json": `{"tools":{"truncateToolOutputThreshold":${value}}}`,
  });
  const where = { env: {}, home: join(base, "home") };
  let cut: Awaited<ReturnType<typeof geminiCut>> | undefined;
  const ms = await cpuMs(async () => {
    cut = await geminiCut(join(base, "p"), where);
  });
  return { cut, ms };
}

describe("hostile repository: a Gemini CLI threshold of 1 MiB of `${`", () => {
  it("as a string: cannot be judged, without a scan", async () => {
    const { cut, ms } = await judged(`"${"${".repeat(RUNS)}"`);
    expect(cut).toEqual({
      kept: 0,
      unjudged:
        "tools.truncateToolOutputThreshold is a string of more than 64 characters, not a number",
      distills: false,
    });
    expect(ms).toBeLessThan(500);
  });

  it("in a list (scanned for environment references): cannot be judged, in linear time", async () => {
    const { cut, ms } = await judged(`["${"${".repeat(RUNS - 2)}"]`);
    expect(cut).toEqual({
      kept: 0,
      unjudged:
        "tools.truncateToolOutputThreshold names an environment variable, which Gemini CLI expands with its own",
      distills: false,
    });
    expect(ms).toBeLessThan(500);
  });
});
