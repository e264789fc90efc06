import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { cliAt, cliProject } from "./_cli-at.js";

// Review rev60d F5: `--system-prompt "$CUSTOM"` with the variable unset (a wrapper's) took "" as
// the custom base prompt: every base section (preamble, tools, rules, docs), your own
// ~/.pi/agent/sections/rules.md too, was replaced with nothing, exit 0, not a word. pi takes an
// empty --system-prompt as not given. A blank value (empty, or white space only) is not given
// now, with a `system-prompt-blank` warning naming the flag.
// Review rev61c F6: blank was JavaScript's trim, so a value of zero-width characters only (U+200B,
// U+2060, the soft hyphen, ZWJ: a `"$(cat sp.txt)"` an editor left so) replaced the whole base
// with nothing visible, silently. Blank is now nothing left without white space and
// default-ignorable code points.
// Review rev64f F3: U+2800 (the braille blank) or a control alone (U+001C, U+0001) still replaced
// every base section with it, exit 0, not a word. Blank now also takes every control (Cc) and what
// the prompt's text module knows is drawn as a blank or nothing (U+2800, unassigned, private use).

const MINE = "MY-OWN-RULES-SECTION";

function layout() {
  const { p, home } = cliProject();
  mkdirSync(join(home, ".pi/agent/sections"), { recursive: true });
  writeFileSync(join(home, ".pi/agent/sections/rules.md"), `${MINE}\n`);
  return { p, home };
}

/**
 * The CLI given each of `values` as --system-prompt renders as without the flag (exit 0), and
 * says it (`said`): the project and the render without the flag.
 */
async function expectRenderedAsWithout(values: readonly string[], said: RegExp) {
  const { p, home } = layout();
  const without = await cliAt(["render"], p, home);
  for (const value of values) {
    const { code, out, err } = await cliAt(["render", "--system-prompt", value], p, home);
    expect(code, JSON.stringify(value)).toBe(0);
    expect(out, JSON.stringify(value)).toBe(without.out);
    expect(err, JSON.stringify(value)).toMatch(said);
  }
  return { p, home, without };
}

describe("hostile-system-prompt-blank: a blank --system-prompt replaces nothing, and is said", () => {
  it("the CLI renders as without the flag, with a warning naming it", async () => {
    const { p, home, without } = await expectRenderedAsWithout(
      ["", " ", "\n\t"],
      /system-prompt-blank.*--system-prompt is (empty|blank)/,
    );
    expect(without.out).toContain(MINE);
    const sections = await cliAt(["sections", "--system-prompt", ""], p, home);
    expect(sections.out).not.toMatch(/replaced/);
  });

  it("the library takes a blank systemPrompt as not given too, with the warning", async () => {
    const root = tempDir();
    mkdirSync(join(root, "agent/sections"), { recursive: true });
    writeFileSync(join(root, "agent/sections/rules.md"), `${MINE}\n`);
    const result = await renderSystemPrompt(pinned(root, { systemPrompt: "" }));
    expect(result.text).toContain(MINE);
    expect(result.text).toContain("<tools>");
    const warning = result.diagnostics.find((d) => d.code === "system-prompt-blank");
    expect(warning?.message).toMatch(/^systemPrompt is empty/);
    const custom = await renderSystemPrompt(pinned(root, { systemPrompt: "Be brief." }));
    expect(custom.text).not.toContain(MINE);
    expect(custom.diagnostics.map((d) => d.code)).not.toContain("system-prompt-blank");
  });

  it("a value drawn as nothing (zero-width, soft hyphen) is blank too", async () => {
    await expectRenderedAsWithout(
      ["\u200b", "\u2060", "\u00ad", "\u200b\u200d", " \u200b\n"],
      /system-prompt-blank.*--system-prompt is blank/,
    );
    const root = tempDir();
    const result = await renderSystemPrompt(pinned(root, { systemPrompt: "\u200b\u00ad" }));
    expect(result.text).toContain("<tools>");
    expect(result.diagnostics.map((d) => d.code)).toContain("system-prompt-blank");
  });

  it("the braille blank and controls alone are blank too", async () => {
    await expectRenderedAsWithout(
      ["\u2800", "\u001c", "\u0001\u007f", "\u2800 \u0085\u200b", "\u0378"],
      /system-prompt-blank.*--system-prompt is blank/,
    );
    const root = tempDir();
    const result = await renderSystemPrompt(pinned(root, { systemPrompt: "\u2800\u001c" }));
    expect(result.text).toContain("<tools>");
    expect(result.diagnostics.map((d) => d.code)).toContain("system-prompt-blank");
    const custom = await renderSystemPrompt(pinned(root, { systemPrompt: "\u2800Be brief." }));
    expect(custom.text).not.toContain("<tools>");
    expect(custom.diagnostics.map((d) => d.code)).not.toContain("system-prompt-blank");
  });
});
