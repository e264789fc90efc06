import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePreset } from "../../src/agents/parse.js";
import { parseScenario } from "../../src/author/snapshot/_scenario.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// One line of `? ` keys nests a key inside a key inside a key: the YAML
// parser's complex-key path is polynomial of a high degree in them (300 ran
// for seconds; the review's 1.6 KB line for minutes, synchronously, past any
// deadline). Every YAML a repository holds is checked against the limits
// before it is parsed, and a file past them gets a located diagnostic.

/** 300 nested keys: seconds before the limits, a few milliseconds after. */
const KEYS = "? ".repeat(300);

/** Far above a render on a loaded machine, far below what 300 nested keys cost the parser. */
const BOUND_MS = 3000;

function write(root: string, path: string, text: string): string {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function timedRender(root: string, extra = {}) {
  const started = performance.now();
  const result = await renderSystemPrompt(pinned(root, extra));
  return { result, ms: performance.now() - started };
}

const located = (
  diagnostics: readonly { code: string; path?: string; line?: number }[],
  file: string,
) => diagnostics.filter((d) => d.path === file).map((d) => [d.code, d.line]);

describe("hostile repository: YAML past its limits is never parsed", () => {
  it("a rule file's frontmatter, with --untrusted: read line by line at once", async () => {
    const root = tempDir();
    const file = write(
      root,
      "project/.cursor/rules/a.mdc",
      `---\nalwaysApply: true\n${KEYS}a\n---\nRule body.\n`,
    );
    const { result, ms } = await timedRender(root, { projectTrusted: false });
    expect(ms).toBeLessThan(BOUND_MS);
    expect(located(result.diagnostics, file)).toEqual([["rule-frontmatter-not-yaml", 3]]);
    expect(result.text).toContain("Rule body.");
  }, 120_000);

  it("a section file's frontmatter: the section's error, at the line", async () => {
    const root = tempDir();
    const file = write(
      root,
      "project/.pi/sections/extra.md",
      `---\norder: 5\n${KEYS}a\n---\nExtra.\n`,
    );
    const { result, ms } = await timedRender(root);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(located(result.diagnostics, file)).toEqual([["frontmatter-yaml", 3]]);
  }, 120_000);

  it("a SKILL.md's frontmatter: read line by line, located, and the render is on time", async () => {
    const root = tempDir();
    const file = write(
      root,
      "project/.pi/skills/s/SKILL.md",
      `---\nname: s\ndescription: S.\n${KEYS}a\n---\nSkill.\n`,
    );
    const { result, ms } = await timedRender(root);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(located(result.diagnostics, file)).toEqual([["frontmatter-not-yaml", 4]]);
    expect(result.sections.find((x) => x.name === "skills")?.text).toContain(
      "<description>S.</description>",
    );
  }, 120_000);

  it("a scenario file: a located problem, not a parse", async () => {
    const started = performance.now();
    const parsed = parseScenario(`tools: [read]\n${KEYS}a\n`, "/s/x.scenario.yaml");
    await expect(parsed).rejects.toThrow(
      "/s/x.scenario.yaml:2:31: lists, mappings and brackets nest deeper than 16 levels; not parsed",
    );
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
  }, 120_000);

  it("a preset file: a located error, nothing set", () => {
    const started = performance.now();
    const { fields, diagnostics } = parsePreset(`agentName: X\n${KEYS}a\n`, "/p/x.yaml");
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect([fields, diagnostics.map((d) => [d.code, d.line])]).toEqual([
      {},
      [["preset-invalid", 2]],
    ]);
  }, 120_000);
});
