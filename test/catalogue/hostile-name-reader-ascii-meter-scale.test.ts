import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_PROMPT_NAME_READ } from "../../src/engine/limits.js";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Attack review rev82b F1: the element-name reader's meter (`withNameWork`,
// `PromptWork.readNames`) charged only text and names outside ASCII, so a trusted project's
// sections of a megabyte of distinct ASCII tag names (`<a_a_…a_Kz1`), read four times over
// after a line of three invisible characters, held `render --deadline 1000` 9.8-35.7 s of CPU
// with nothing said. Every reading now charges the text's length (ASCII too) and every ASCII
// name its length: past the meter the section is stopped, the later ones left out, yours kept.
// A project at every cap of plain prose (8 MiB, with a reference in each section: two
// readings) does not reach it.

function section(f: number, line: (k: number) => string, units: number): string {
  let text = `---\norder: ${100 + f}\n---\nSECTION-${f}\n\nx\u200b\u{e0041}\u3164 y &#97; b\n`;
  for (let k = 0; text.length < units; k++) text += line(k);
  return text;
}

async function render(make: (f: number) => string, count: number) {
  const root = tempDir();
  const files: Record<string, string> = {
    "home/.pi/agent/AGENTS.md": "USER-RULE-MARKER: be careful.\n",
    "project/.git/HEAD": "ref: refs/heads/main\n",
  };
  for (let f = 0; f < count; f++) files[`project/.pi/sections/s${f}.md`] = make(f);
  writeFiles(root, files);
  return renderSystemPrompt({
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "home/.pi/agent"),
    deadlineMs: 60_000,
  });
}

describe("hostile repository: a project's texts of distinct ASCII tag names", () => {
  it("four sections of 600 KB of them stop at the render's meter", async () => {
    const r = await render((f) => section(f, (k) => `<${"a_".repeat(38)}${f}z${k}\n`, 600_000), 4);
    const stopped = r.diagnostics.find((d) => d.code === "template");
    expect(stopped?.message).toContain(
      `more than ${MAX_PROMPT_NAME_READ / (1024 * 1024)} Mi units of work`,
    );
    expect(r.diagnostics.some((d) => d.code === "prompt-render-work")).toBe(true);
    expect(r.text).toContain("USER-RULE-MARKER");
  }, 120_000);

  it("a project at every cap of prose with tags and a reference renders whole", async () => {
    const words = "the quick brown fox jumps over the lazy dog while the build renders";
    const r = await render(
      (f) =>
        section(
          f,
          (k) =>
            `${words} ${k}${k % 5 === 0 ? " <b>note</b> <code>x_y.z</code> <a href=u>l</a>" : ""}.\n`,
          1_000_000,
        ).replace("x\u200b\u{e0041}\u3164 y ", ""),
      8,
    );
    expect(r.diagnostics.filter((d) => d.level === "error")).toEqual([]);
    for (let f = 0; f < 8; f++) expect(r.text).toContain(`SECTION-${f}`);
  }, 120_000);
});
