import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_PROMPT_NAME_READ } from "../../src/engine/limits.js";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev80b F1: the element-name reader (`heldOpeners`, `namedAt`, `foldedNames`,
// `ownerMarks` in src/_prompt-text.ts), through which a trusted project's text is held, was
// counted by no meter: 24 sections of a megabyte of Hangul tag names (each file under its cap)
// held `render --deadline 1000` 4.9-7.1 s of CPU, every section read whole before the prompt's
// size left the last out. Now its work is charged to the render's (`withNameWork`,
// `PromptWork.readNames`, MAX_PROMPT_NAME_READ): past it the section is stopped with a template
// error and the project's later sections are left out unrendered, by name; yours stay.

/** Lines of `<` + 60 Hangul syllables + `> x`, cycling through 11,000 of them from `base`. */
function hangulTags(units: number, base: number): string {
  let text = "";
  for (let k = 0; text.length < units; ) {
    text += "<";
    for (let m = 0; m < 60; m++) text += String.fromCodePoint(base + (k++ % 11_000));
    text += "> x\n";
  }
  return text;
}

describe("hostile repository: a project's texts of tag names outside ASCII", () => {
  it("24 sections of a megabyte of Hangul tag names stop at the render's meter", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "home/.pi/agent/AGENTS.md": "USER-RULE-MARKER: be careful.\n",
      "project/.git/HEAD": "ref: refs/heads/main\n",
    };
    for (let f = 0; f < 24; f++)
      files[`project/.pi/sections/s${f}.md`] =
        `---\norder: ${100 + f}\n---\n${hangulTags(340_000, 0xac00 + f * 13)}`;
    writeFiles(root, files);
    const paths = {
      cwd: join(root, "project"),
      home: join(root, "home"),
      agentDir: join(root, "home/.pi/agent"),
    };
    // Warm: modules loaded and the builtin templates compiled, as in a session's later render.
    await renderSystemPrompt({ ...paths, cwd: join(root, "home") });
    const { cpuMs, value: r } = await cpuTimed(() =>
      renderSystemPrompt({ ...paths, deadlineMs: 60_000 }),
    );
    const stopped = r.diagnostics.find((d) => d.code === "template");
    expect(stopped?.message).toContain(
      `more than ${MAX_PROMPT_NAME_READ / (1024 * 1024)} Mi units of work`,
    );
    expect(stopped?.message).toContain("the section is left out");
    const unworked = r.diagnostics.find((d) => d.code === "prompt-render-work");
    expect(unworked?.message).toMatch(/left out, not rendered: s\d+/);
    expect(r.text).toContain("USER-RULE-MARKER");
    // Was 4.9-7.1 s of CPU; about 1.3 s now.
    expect(cpuMs).toBeLessThan(4000);
  }, 120_000);

  it("a project's few sections of such names still render whole", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "home/.pi/agent/AGENTS.md": "USER-RULE-MARKER: be careful.\n",
      "project/.git/HEAD": "ref: refs/heads/main\n",
    };
    for (let f = 0; f < 2; f++)
      files[`project/.pi/sections/s${f}.md`] =
        `---\norder: ${100 + f}\n---\nSECTION-${f}\n\n${hangulTags(100_000, 0xac00 + f * 13)}`;
    writeFiles(root, files);
    const r = await renderSystemPrompt({
      cwd: join(root, "project"),
      home: join(root, "home"),
      agentDir: join(root, "home/.pi/agent"),
      deadlineMs: 60_000,
    });
    expect(r.diagnostics.filter((d) => d.level === "error")).toEqual([]);
    expect(r.text).toContain("SECTION-0");
    expect(r.text).toContain("SECTION-1");
    expect(r.text).toContain("USER-RULE-MARKER");
  }, 60_000);
});
