import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { EVERY_STEP, words } from "./_filler.js";

// Review rev41b L1: under --max-tokens, a cut that saved no tokens is taken
// when it brings your own texts, left out for want of room, nearer to it (the
// estimate counts them as over any budget while out). Its budget-cut warning
// then said it "gave your own texts in "rules", "project_context",
// "project_rules" their room back", while user-text-left-out said two of them
// were still out, and the prompt held neither. A cut now names the sections of
// yours it brought back, and those still out; one that brought none back says
// so. A trusted project's 16 sections of 512 KB of two-byte text, each
// declaring every step, fill the prompt's 8 MiB. (Slow tier: ~5 s.)

const USER_AGENTS = "USER-AGENTS-MARKER always be nice";

const numbers = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(" ");

function fixture(): string {
  const root = tempDir();
  const project = join(root, "project");
  const sections = join(project, ".pi", "sections");
  mkdirSync(sections, { recursive: true });
  mkdirSync(join(project, ".git"), { recursive: true });
  for (let i = 0; i < 16; i++) {
    writeFileSync(
      join(sections, `big${i}.md`),
      `---\norder: ${i + 1}\nshrink: { priority: 1, steps: ${EVERY_STEP} }\n---\n\u20ac${words(`w${i}`, 524_197)}\n`,
    );
  }
  for (let i = 1; i <= 30; i++) {
    mkdirSync(join(project, `d${i}`));
    writeFileSync(join(project, `d${i}`, "f.txt"), "x\n");
    if (i <= 10) writeFileSync(join(project, `d${i}`, "AGENTS.md"), `nested ${i}\n`);
  }
  writeFileSync(join(project, "AGENTS.md"), `# proj ${numbers(2000)}\n`);
  const rules = join(project, ".cursor", "rules");
  mkdirSync(rules, { recursive: true });
  for (let i = 1; i <= 20; i++) {
    writeFileSync(
      join(rules, `a${i}.mdc`),
      `---\nalwaysApply: true\n---\nalways rule ${i} ${numbers(300)}\n`,
    );
    writeFileSync(
      join(rules, `g${i}.mdc`),
      `---\nglobs: src/**/*.ts\ndescription: glob rule ${i} ${numbers(50)}\n---\nx ${i}\n`,
    );
  }
  writeFileSync(join(project, ".pi", "APPEND_SYSTEM.md"), `project append ${numbers(500)}\n`);
  mkdirSync(join(root, "agent", "rules"), { recursive: true });
  writeFileSync(join(root, "agent", "AGENTS.md"), `# Mine\n${USER_AGENTS}\n`);
  writeFileSync(
    join(root, "agent", "rules", "mine.md"),
    "---\nalwaysApply: true\n---\nUSER-RULE-MARKER\n",
  );
  return root;
}

/** The section names a message quotes after `lead`, up to the next word that is not a quoted name. */
function named(message: string, lead: string): string[] {
  const at = message.indexOf(lead);
  if (at < 0) return [];
  const list = /^((?:"[a-z_0-9]+"(?:, )?)+)/.exec(message.slice(at + lead.length))?.[1] ?? "";
  return [...list.matchAll(/"([a-z_0-9]+)"/g)].map((m) => m[1] ?? "");
}

describe("hostile repository: a budget cut that gave your texts no room", () => {
  it("says which of your sections it brought back, and which are still out", async () => {
    // No deadline to speak of: since fx89c a trusted project's section still rendering past the
    // render's stop time is stopped, and 8 MiB of sections take longer than 5 s under load; the
    // case is about the budget cut's words, not the clock.
    const result = await renderSystemPrompt(
      pinned(fixture(), { projectTrusted: true, deadlineMs: 600_000, maxPromptTokens: 100_000 }),
    );
    const placed = new Set(result.sections.map((s) => s.name));
    const left = result.diagnostics.filter((d) => d.code === "user-text-left-out");
    expect(left.length).toBeGreaterThan(0);
    const cuts = result.diagnostics.filter((d) => d.code === "budget-cut");
    expect(cuts.length).toBeGreaterThan(0);
    for (const cut of cuts) {
      // Before: "rules" and "project_context" were said to have their room back, and were out.
      for (const name of named(cut.message, "which gave your own texts in ")) {
        expect(placed, `${name} in: ${cut.message}`).toContain(name);
        expect(left.filter((d) => d.message.includes(`"${name}"`))).toEqual([]);
      }
    }
    // A cut that saved no tokens and brought none of yours back says they are still out.
    const none = cuts.filter((c) => c.message.includes("which saved no tokens"));
    expect(none.length).toBeGreaterThan(0);
    for (const cut of none) {
      const out = named(cut.message, "gave your own texts in ");
      expect(out.length).toBeGreaterThan(0);
      expect(cut.message).toContain("no room yet: they are still out of the prompt");
    }
  }, 120_000);
});
