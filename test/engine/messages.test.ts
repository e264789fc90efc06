import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { capMessage, createEngine, TemplateError } from "../../src/engine/index.js";
import { MAX_MESSAGE_LENGTH } from "../../src/engine/limits.js";
import { capPerKind } from "../../src/engine/message.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import type { Diagnostic } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";

function failure(run: () => unknown): { message: string; line?: number; column?: number } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return { message: error.message, line: error.line, column: error.column };
  }
  throw new Error("expected a TemplateError");
}

describe("capMessage", () => {
  it("leaves a message up to the cap alone", () => {
    const exact = "m".repeat(MAX_MESSAGE_LENGTH);
    expect(capMessage(exact)).toBe(exact);
  });

  it("keeps the start and the end of a longer one around an ellipsis", () => {
    const head = "h".repeat(1000);
    const tail = "t".repeat(1000);
    const capped = capMessage(`${head}${tail}`);
    expect(capped).toBe(`${"h".repeat(400)}…${"t".repeat(199)}`);
    expect(capped.length).toBe(MAX_MESSAGE_LENGTH);
  });

  it("never splits a surrogate pair", () => {
    const capped = capMessage("😀".repeat(1000), 11);
    expect(capped).toBe("😀😀😀…😀");
  });
});

describe("TemplateError messages", () => {
  const engine = createEngine();

  it("cap a helper error that quotes a huge value, keeping both ends", () => {
    const tag = "<".repeat(1024 * 1024);
    const { message } = failure(() => engine.render("{{#xml tag}}x{{/xml}}", { tag }));
    expect(message.length).toBe(MAX_MESSAGE_LENGTH);
    expect(message.startsWith('Helper "xml": "<<<')).toBe(true);
    expect(message.endsWith('<<<" is not a valid tag name')).toBe(true);
  });

  it("name a long chain of partials by its ends and count the middle", () => {
    const partials: Record<string, string> = {};
    for (let i = 0; i < 10; i++)
      partials[`q${i}`] = i === 9 ? "\n {{#bogus 1}}{{/bogus}}" : `{{> q${i + 1}}}`;
    expect(failure(() => engine.render("{{> q0}}", {}, { partials }))).toEqual({
      message:
        'In partial "q0" (line 1, column 1) > "q1" (line 1, column 1) > "q2" (line 1, column 1) > … 4 more … > "q7" (line 1, column 1) > "q8" (line 1, column 1) > "q9" (line 2, column 2): Unknown helper "bogus"',
      line: 1,
      column: 1,
    });
  });
});

describe("render diagnostics", () => {
  it("are capped too, e.g. one that quotes an unknown frontmatter key of 10,000 characters", async () => {
    const root = tempDir();
    const sections = join(root, "project", ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    for (const dir of ["agent", "home"]) mkdirSync(join(root, dir));
    // An explicit key (`? key`): YAML limits implicit keys to 1,024 characters.
    writeFileSync(join(sections, "rules.md"), `---\n? ${"k".repeat(10_000)}\n: 1\n---\nbody\n`);
    const result = await renderSystemPrompt(pinned(root, { noContextFiles: true }));
    expect(
      result.diagnostics.map((d) => [
        d.code,
        d.message.length,
        d.message.startsWith('unknown frontmatter key "kkk'),
        d.message.endsWith(
          'kkk", ignored; the keys are: order, tag, base, cache, volatile, enabled, description, maxTokens, shrink, models',
        ),
      ]),
    ).toEqual([["section-meta-unknown", MAX_MESSAGE_LENGTH, true, true]]);
  });
});

describe("loader diagnostics", () => {
  it("are capped like render's: a skill name and a template's YAML of 10,000 characters", async () => {
    const { loadPromptTemplates, loadSkills } = await import("../../src/index.js");
    const root = tempDir();
    mkdirSync(join(root, "skills", "bad"), { recursive: true });
    writeFileSync(
      join(root, "skills", "bad", "SKILL.md"),
      `---\nname: ${"A".repeat(10_000)}\ndescription: x\n---\nbody\n`,
    );
    mkdirSync(join(root, "prompts"));
    writeFileSync(
      join(root, "prompts", "t.md"),
      `---\ndescription: ${"!".repeat(10_000)}\n---\nx\n`,
    );
    const common = { cwd: root, agentDir: join(root, "agent"), home: join(root, "home") };
    const skills = await loadSkills({ ...common, paths: [join(root, "skills")] });
    const templates = await loadPromptTemplates({ ...common, paths: [join(root, "prompts")] });
    const lengths = [...skills.diagnostics, ...templates.diagnostics].map((d) => d.message.length);
    expect(Math.max(...lengths)).toBe(MAX_MESSAGE_LENGTH);
    expect(lengths.every((n) => n <= MAX_MESSAGE_LENGTH)).toBe(true);
  });
});

describe("capPerKind", () => {
  const d = (code: string, level: Diagnostic["level"], path: string): Diagnostic => ({
    level,
    code,
    message: "m",
    path,
  });

  it("keeps the first of each code in order, and counts the rest in place of the first left out", () => {
    const input = [
      d("a", "info", "1"),
      d("b", "warning", "2"),
      d("a", "info", "3"),
      d("a", "error", "4"),
      d("b", "warning", "5"),
      d("a", "warning", "6"),
    ];
    expect(capPerKind(input, 1)).toEqual([
      d("a", "info", "1"),
      d("b", "warning", "2"),
      {
        level: "error",
        code: "diagnostics-capped",
        message:
          "… and 3 more [a] diagnostics not shown (the first 1 are): the first not shown is at this path",
        path: "3",
      },
      {
        level: "warning",
        code: "diagnostics-capped",
        message:
          "… and 1 more [b] diagnostic not shown (the first 1 are): the first not shown is at this path",
        path: "5",
      },
    ]);
  });

  it("leaves a list within the cap as it is, and a summary from an earlier cap too", () => {
    const once = capPerKind([d("a", "info", "1"), d("a", "info", "2")], 1);
    expect(capPerKind(once, 1)).toEqual(once);
    const few = [d("a", "info", "1"), d("b", "info", "2")];
    expect(capPerKind(few, 1)).toEqual(few);
  });
});
