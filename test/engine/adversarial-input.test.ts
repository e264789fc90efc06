// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is prompt-template placeholder syntax here.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_FRONTMATTER_CHARS, parseFrontmatter } from "../../src/_frontmatter.js";
import { MAX_TEXT_FILE_BYTES } from "../../src/_fs.js";
import { createEngine, formatPrompt } from "../../src/engine/index.js";
import {
  expandPromptTemplate,
  parseCommandArgs,
  parsePromptTemplate,
  substituteArgs,
} from "../../src/prompt-templates/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { parseSectionFile } from "../../src/sections/load.js";
import { expandSkillCommand } from "../../src/skills/expand.js";
import { parseSkill } from "../../src/skills/validate.js";
import type { Diagnostic, RenderResult } from "../../src/types.js";
import { builtinSection, DEFAULT_RULES_SECTION, pinned, tempDir } from "../api/_helpers.js";

// Every user-text path gets inputs of just under 1 MiB (MAX_TEXT_FILE_BYTES:
// bigger files are not read at all) in shapes that made a regular expression
// or a parser backtrack: long runs of one character followed by another, many
// openers that never close, delimiters nested in delimiters. Linear work on
// 1 MB takes milliseconds to a few hundred; the quadratic paths these inputs
// used to take took seconds on 100 KB and minutes on 1 MB. A bound of 1500 ms
// of CPU time separates the two with a wide margin: at most 0.29 s here, CI
// machines up to 2x slower. The clock is not the bound: it counts a loaded
// machine's other processes too (0.91 s for a case of 0.28 s of CPU at a load of 8).
const BOUND_MS = 1500;
const SIZE = MAX_TEXT_FILE_BYTES - 4096;

/** `unit` repeated to fill SIZE characters (less the tail), then `tail`. */
function fill(unit: string, tail = "", head = ""): string {
  return head + unit.repeat(Math.floor((SIZE - head.length - tail.length) / unit.length)) + tail;
}

/** The CPU time (ms) this process has spent since `since` (process.cpuUsage()). */
function cpuSince(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = process.cpuUsage();
  const value = run();
  return { value, ms: cpuSince(start) };
}

async function timedAsync<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = process.cpuUsage();
  const value = await run();
  return { value, ms: cpuSince(start) };
}

/** level, code and path of each diagnostic: what says "this file failed, and how". */
const outline = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map(({ level, code, path }) => ({ level, code, path }));

/** Renders a temp project whose files are given relative to `<root>/project`. */
async function renderProject(
  files: Record<string, string>,
  extra: Parameters<typeof pinned>[1] = {},
): Promise<{ result: RenderResult; ms: number; project: string }> {
  const root = tempDir();
  const project = join(root, "project");
  for (const dir of ["agent", "home", "project"]) mkdirSync(join(root, dir), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(project, path, ".."), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  const { value, ms } = await timedAsync(() =>
    renderSystemPrompt(pinned(root, { deadlineMs: 60_000, ...extra })),
  );
  return { result: value, ms, project };
}

beforeAll(async () => {
  // Load every module (yaml, the Handlebars compiler) and warm the caches
  // once, so the bound measures the input and not a first import.
  await renderProject({
    "AGENTS.md": "# warm up\n",
    ".pi/sections/warm.md": "{{#if cwd}}x{{/if}}",
  });
});

describe("context files (AGENTS.md), rendered through renderSystemPrompt", () => {
  const shapes: [string, string, string][] = [
    // [name, file text, what the section must contain after formatting]
    ["a long run of spaces, then a character", fill(" ", "x", "Build with make."), ""],
    ["long runs of spaces and tabs that end lines", fill(" \t", "\nb", "a"), "a\nb"],
    ["a long backtick run, then U+2028", fill("`", "\u2028\nafter"), ""],
    ["many blank lines", fill("\n", "x", "top"), "top\n\nx"],
    ["template syntax, never rendered", fill("{{#if a}}", "\\{{#   }"), ""],
  ];

  it.each(shapes)("%s", async (_name, text, formatted) => {
    // Context files are cut at 256 KiB by default; the whole megabyte must reach formatting here.
    const { result, ms } = await renderProject(
      { "AGENTS.md": text },
      { maxContextBytes: 2 * SIZE },
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(result.diagnostics).toEqual([]);
    const section = result.sections.find((s) => s.name === "project_context");
    expect(section?.text).toContain(formatted === "" ? formatPrompt(text).trim() : formatted);
  });
});

describe("section bodies, rendered through renderSystemPrompt", () => {
  const BUILTIN_RULES = {
    name: "rules",
    text: DEFAULT_RULES_SECTION,
    source: { layer: "builtin", path: builtinSection("rules") },
  };

  // Each override is broken in its own way: it must fail fast, with an error
  // diagnostic, and the builtin rules section must render in its place.
  const broken: [string, string, string | undefined][] = [
    [
      "an escaped tag with a long run of spaces, then an unclosed block (the issue's case)",
      `${"\\{{#"}${" ".repeat(SIZE - 20)}}{{#if a}}x`,
      'Block "if" is never closed: expected {{/if}}',
    ],
    [
      "many unclosed block openers",
      fill("{{#if a}}"),
      "Blocks, else-chains and subexpressions are nested more than 100 deep",
    ],
    ["many unclosed comments", fill("{{!--", "{{#if a}}x"), undefined],
    [
      "deeply nested subexpressions",
      fill("(a ", "", "{{x "),
      "Blocks, else-chains and subexpressions are nested more than 100 deep",
    ],
    ["nested-looking delimiters", fill("{{"), undefined],
    [
      "many tags",
      fill("{{x}}"),
      "Template too large: more than 5000 tags; split it into smaller sections",
    ],
    [
      "one tag with a megabyte of parameters",
      fill(" a", "}}", "{{x"),
      "Template too large: more than 20000 words inside its tags",
    ],
  ];

  it.each(broken)("%s", async (_name, body, reason) => {
    const { result, ms, project } = await renderProject(
      { ".pi/sections/rules.md": body },
      { noContextFiles: true },
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(result.sections.find((s) => s.name === "rules")).toEqual(BUILTIN_RULES);
    const path = join(project, ".pi", "sections", "rules.md");
    expect(outline(result.diagnostics)).toEqual([{ level: "error", code: "template", path }]);
    if (reason !== undefined) {
      expect(result.diagnostics[0]?.message).toBe(`${reason}; the builtin version is used instead`);
    }
  });

  it("a megabyte of text with a long run of spaces renders as it is", async () => {
    const body = fill(" ", "x", "Build with make.");
    const { result, ms } = await renderProject(
      { ".pi/sections/rules.md": body },
      { noContextFiles: true },
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(result.diagnostics).toEqual([]);
    expect(result.sections.find((s) => s.name === "rules")?.text).toBe(
      `<rules>\n${body}\n</rules>`,
    );
  });
});

describe("templates with parse errors, compiled by the engine", () => {
  const engine = createEngine();
  const shapes: [string, string][] = [
    ["spaces, then an unclosed block", fill(" ", "{{#if a}}x", "\\{{#")],
    ["unclosed comments", fill("{{!--", "{{#if a}}x")],
    ["unclosed short comments", fill("{{!", "x")],
    ["a raw block full of openers", fill("{{", "", "{{{{raw}}}}")],
    ["escaped mustaches", fill("\\{{")],
    ["escaped backslashes before tags", fill("\\\\{{x}}")],
    ["an unclosed string of escaped quotes", fill('\\"', "", '{{x "')],
    ["an unclosed segment literal", fill("\\]", "", "{{[")],
    ["many else-chains", fill("{{else if b}}", "{{/if}}", "{{#if a}}")],
    ["only braces", fill("{")],
    ["closers with nothing open", fill("{{/if}}")],
    ["openers and mismatched closers", fill("{{#a}}{{/b}}")],
  ];

  it.each(shapes)("%s", (_name, source) => {
    const { value, ms } = timed(() => engine.check(source));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value?.name).toBe("TemplateError");
  });

  it("a megabyte of data through the helpers", () => {
    const text = fill("<&> ", "x");
    const { value, ms } = timed(() =>
      engine.render(
        '{{escapeXml text}}|{{join xs "\\n"}}|{{#list xs join="\\t"}}{{this}}{{/list}}',
        {
          text,
          xs: [text, text],
        },
      ),
    );
    expect(ms).toBeLessThan(BOUND_MS);
    const escaped = text.split("&").join("&amp;").split("<").join("&lt;").split(">").join("&gt;");
    expect(value === `${escaped}|${text}\n${text}|${text}\t${text}`).toBe(true);
  });
});

describe("frontmatter", () => {
  const tooLong = (shape: string) => `---\n${fill(shape, "\n---\nbody")}`;
  const shapes: [string, string][] = [
    ["blank lines", "\n"],
    ["lines of spaces", " \n"],
    ["many keys", "k: 1\n"],
    ["deep flow collections", "["],
    ["a long line of colons and spaces", "a: "],
    ["comment lines", "# c\n"],
  ];

  it.each(shapes)("%s: a megabyte is refused at once", (_name, shape) => {
    const text = tooLong(shape);
    const { value, ms } = timed(() => parseFrontmatter(text, "/p/x.md"));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value.ok).toBe(false);
    expect(outline(value.diagnostics)).toEqual([
      { level: "error", code: "frontmatter-too-large", path: "/p/x.md" },
    ]);
  });

  it.each(shapes)("%s: just under the limit is parsed in time", (_name, shape) => {
    const block = shape.repeat(Math.floor((MAX_FRONTMATTER_CHARS - 1) / shape.length));
    const { ms } = timed(() => parseFrontmatter(`---\n${block}\n---\nbody`, "/p/x.md"));
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("a section file with thousands of unknown keys: each diagnostic points at its line", () => {
    const count = Math.floor((MAX_FRONTMATTER_CHARS - 1) / 12);
    const keys = Array.from({ length: count }, (_, i) => `key${String(i).padStart(5, "0")}: 1`);
    const text = `---\n${keys.join("\n")}\n---\nbody`;
    const { value, ms } = timed(() => parseSectionFile("s", text, "/p/s.md", "project"));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value.diagnostics.map((d) => d.line)).toEqual(keys.map((_, i) => i + 2));
  });

  it("a section file of a megabyte: the file is ignored at once", () => {
    const { value, ms } = timed(() =>
      parseSectionFile("s", tooLong("k: 1\n"), "/p/s.md", "project"),
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value.section).toBeUndefined();
    expect(outline(value.diagnostics)).toEqual([
      { level: "error", code: "frontmatter-too-large", path: "/p/s.md" },
    ]);
  });
});

describe("prompt templates and their arguments", () => {
  const shapes: [string, string][] = [
    ["unclosed defaults (the issue's case)", fill("${1:-")],
    ["unclosed slices", fill("${@:1:")],
    ["unclosed braces", fill("${")],
    ["dollars", fill("$")],
    ["digits after a brace", fill("1", "", "${")],
    ["defaults closed only at the very end", fill("${1:-", "}")],
  ];

  it.each(shapes)("substituteArgs: %s", (_name, content) => {
    const { value, ms } = timed(() => substituteArgs(content, ["a"]));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value?.length).toBeLessThanOrEqual(content.length);
  });

  const argumentShapes: [string, string][] = [
    ["unclosed quotes of both kinds", fill("'a \"b ")],
    ["escaped quotes", fill("'\\'")],
    ["a quote, then spaces", fill(" ", "x", '"')],
    ["many short arguments", fill("a ")],
  ];

  it.each(argumentShapes)("parseCommandArgs: %s", (_name, text) => {
    const { ms } = timed(() => parseCommandArgs(text));
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("expandPromptTemplate with a hostile template and a megabyte of arguments", () => {
    const templates = [{ name: "t", content: fill("${1:-", "$@") }];
    const { value, ms } = timed(() => expandPromptTemplate(`/t ${fill("'a ")}`, templates));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value.startsWith("${1:-'a")).toBe(false);
  });

  it("a prompt-template file of a megabyte with hostile frontmatter", () => {
    const { value, ms } = timed(() =>
      parsePromptTemplate(`---\n${fill("\n", "\n---\nbody")}`, "/p/t.md", "project"),
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value.template).toBeUndefined();
  });
});

describe("skills", () => {
  it("a SKILL.md of a megabyte of frontmatter is refused at once", () => {
    const text = `---\ndescription: d\n${fill("\n", "\n---\nbody")}`;
    const { value, ms } = timed(() => parseSkill(text, "/s/a/SKILL.md", "project"));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value.skill).toBeNull();
    expect(outline(value.diagnostics)).toEqual([
      { level: "error", code: "frontmatter-too-large", path: "/s/a/SKILL.md" },
    ]);
  });

  it("a long hostile name just under the limit", () => {
    const name = "-".repeat(MAX_FRONTMATTER_CHARS - 100);
    const text = `---\ndescription: d\nname: ${name}\n---\n${fill(" ", "x")}`;
    const { value, ms } = timed(() => parseSkill(text, "/s/a/SKILL.md", "project"));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value.skill?.name).toBe(name);
  });

  it("/skill: with a megabyte of request and a megabyte skill body", () => {
    const root = tempDir();
    const filePath = join(root, "a", "SKILL.md");
    mkdirSync(join(root, "a"));
    writeFileSync(filePath, `---\ndescription: d\n---\n${fill(" ", "x")}`);
    const skill = {
      name: "a",
      description: "d",
      filePath,
      baseDir: join(root, "a"),
      disableModelInvocation: false,
      source: "project" as const,
    };
    // The session's project: the skill is read again within it.
    const { value, ms } = timed(() =>
      expandSkillCommand(`/skill:a ${fill(" \t", "x")}`, [skill], { cwd: root }),
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value.endsWith("The user's request:\nx")).toBe(true);
  });
});
