import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  escapeWrapperTags,
  ownTextNames,
  repositoryNames,
  withNameBudget,
} from "../../src/_prompt-text.js";
import { MAX_PROMPT_NAME_READ } from "../../src/engine/limits.js";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev82b F2: the element-name reader's meter (`withNameWork`) ran only around a
// trusted project's sections: an untrusted render's rule and context files (read at assembly)
// and a touch call's files were read with no meter, so four 256 KB always rules of distinct
// ASCII tag names (`<a_a_…a_1z0`), read four times over after a line of three invisible
// characters and a reference, held `render --deadline 1000 --untrusted` 2-10 s of CPU. Now one
// render's assembly (and one touch call) reads the repository's texts to one meter
// (`withNameBudget`, MAX_PROMPT_NAME_READ units); past it each text is escaped whole, every
// opener (`<` and each look-alike the reader takes for one) written `&lt;`, with a
// `prompt-render-work` warning naming the file. Your texts are read outside the meter.

/** A repository's text of distinct ASCII tag names, after a line a reader reads four ways. */
function distinctNames(f: number, size: number, head = ""): string {
  let text = `${head}x\u200b\u{e0041}\u3164 y &#97;\n`;
  for (let k = 0; text.length < size; k++) text += `<${"a_".repeat(38)}${f}z${k}\n`;
  return text;
}

/** Far above the render's CPU with the meter on a loaded machine (0.5-1.5 s), below the 2-10 s before it. */
const BOUND_MS = 6000;

describe("hostile repository: rule, context and touched files of distinct tag names", () => {
  it("an untrusted render reads four 256 KB always rules to one meter, then escapes the rest whole, said by file", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "home/.pi/agent/AGENTS.md": "USER-RULE-MARKER: be careful.\n",
      "project/.git/HEAD": "ref: refs/heads/main\n",
    };
    for (let r = 0; r < 4; r++)
      files[`project/.cursor/rules/r${r}.mdc`] = distinctNames(
        r,
        256_000,
        `---\ndescription: r${r}\nalwaysApply: true\n---\nRULE-${r} <b>tail-${r}</b>\n`,
      );
    writeFiles(root, files);
    const { cpuMs, value: r } = await cpuTimed(() =>
      renderSystemPrompt({
        cwd: join(root, "project"),
        home: join(root, "home"),
        agentDir: join(root, "home/.pi/agent"),
        projectTrusted: false,
        deadlineMs: 60_000,
      }),
    );
    const whole = r.diagnostics.filter((d) => d.code === "prompt-render-work");
    expect(whole.length).toBeGreaterThan(0);
    expect(whole[0]?.path).toMatch(/r\d\.mdc$/);
    expect(whole[0]?.message).toContain("escaped whole because of its cost");
    // Every rule is in the prompt; the last, escaped whole, has its `<b>` written `&lt;b>`.
    for (let r0 = 0; r0 < 4; r0++) expect(r.text).toContain(`RULE-${r0}`);
    expect(r.text).toContain("&lt;b>tail-3&lt;/b>");
    expect(r.text).toContain("USER-RULE-MARKER");
    expect(cpuMs).toBeLessThan(BOUND_MS);
  }, 120_000);

  it("a trusted project's sections spend what its rules left of the same meter: one render, one meter", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "home/.pi/agent/AGENTS.md": "USER-RULE-MARKER: be careful.\n",
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/sections/extra.md":
        "---\norder: 150\n---\nPROJECT-SECTION with <b>some</b> text of its own, long enough.\n",
    };
    for (let r = 0; r < 4; r++)
      files[`project/.cursor/rules/r${r}.mdc`] = distinctNames(
        r,
        256_000,
        `---\ndescription: r${r}\nalwaysApply: true\n---\nRULE-${r}\n`,
      );
    writeFiles(root, files);
    const r = await renderSystemPrompt({
      cwd: join(root, "project"),
      home: join(root, "home"),
      agentDir: join(root, "home/.pi/agent"),
      deadlineMs: 60_000,
    });
    const stopped = r.diagnostics.find((d) => d.code === "template");
    expect(stopped?.message).toContain(
      `more than ${MAX_PROMPT_NAME_READ / (1024 * 1024)} Mi units of work`,
    );
    expect(r.text).not.toContain("PROJECT-SECTION");
    expect(r.text).toContain("USER-RULE-MARKER");
  }, 120_000);

  it("one touch call reads its files to one meter too", async () => {
    const root = tempDir();
    const files: Record<string, string> = { "project/.git/HEAD": "ref: refs/heads/main\n" };
    let dir = "project";
    for (let f = 0; f < 4; f++) {
      dir = `${dir}/d${f}`;
      files[`${dir}/AGENTS.md`] = distinctNames(f, 256_000, `CONTEXT-${f} <b>kept-${f}</b>\n`);
    }
    files[`${dir}/x.ts`] = "";
    writeFiles(root, files);
    const out = await loadContextForPaths([join(root, dir, "x.ts")], {
      cwd: join(root, "project"),
      home: join(root, "home"),
      deadlineMs: 60_000,
    });
    const whole = out.diagnostics.filter((d) => d.code === "prompt-render-work");
    expect(whole.length).toBeGreaterThan(0);
    expect(whole[0]?.message).toContain("escaped whole because of its cost");
    const escaped = out.files.filter((f) => /&lt;b>kept-\d&lt;\/b>/.test(f.content));
    expect(escaped.map((f) => f.path).sort()).toEqual(whole.map((d) => d.path).sort());
  }, 120_000);

  it("past the meter, every opener the reader takes for `<` is written `&lt;`; your text is judged as before", () => {
    const names = repositoryNames(["rules"]);
    const yours = ownTextNames(names);
    const lookAlikes = ["\ufe64", "\uff1c", "\u2039", "\u3008", "\u276e", "\u{e003c}", "\u2aa1"];
    const forged = lookAlikes.map((lt) => `${lt}/rules> ${lt}b>x`).join("\n");
    const budget = { left: MAX_PROMPT_NAME_READ, untold: 0 };
    let told = 0;
    const [spent, after, mine] = withNameBudget(budget, () => [
      escapeWrapperTags(distinctNames(0, 600_000), names),
      escapeWrapperTags(forged, names, false, undefined, () => told++),
      escapeWrapperTags("Your <b>bold</b> and </rules> here.", yours),
    ]);
    expect(budget.left).toBeLessThan(0);
    expect(spent).not.toContain("\n<a_");
    expect(told).toBe(1);
    // Each look-alike, whatever name follows, is `&lt;`: no opener is left in the text.
    for (const lt of lookAlikes) expect(after).not.toContain(lt);
    expect(after.split("&lt;").length - 1).toBe(2 * lookAlikes.length);
    // As the full reader reads it outside any meter: its tag of the prompt's held, `<b>` kept.
    expect(mine).toBe(escapeWrapperTags("Your <b>bold</b> and </rules> here.", yours));
    expect(mine).toBe("Your <b>bold</b> and &lt;/rules> here.");
  }, 60_000);
});
