import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTextOrPath } from "../../src/locate/custom.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import {
  builtinSection,
  copyScenario,
  cwdSection,
  DATE_SECTION,
  DEFAULT_RULES_SECTION,
  DEFAULT_TOOLS_SECTION,
  ENVIRONMENT_SECTION,
  PREAMBLE,
  pinned,
  tempDir,
} from "../api/_helpers.js";

const builtin = (name: string, text: string) => ({
  name,
  text,
  source: { layer: "builtin", path: builtinSection(name) },
});

describe("custom base prompt", () => {
  it("precedence: option > project SYSTEM.md > project SYSTEM_TEMPLATE.md > user SYSTEM.md > user SYSTEM_TEMPLATE.md", async () => {
    const root = copyScenario("layers", "custom-base-precedence");
    const cwd = join(root, "project");
    const preamble = async (systemPrompt?: string) => {
      const result = await renderSystemPrompt(
        pinned(root, { noContextFiles: true, ...(systemPrompt ? { systemPrompt } : {}) }),
      );
      expect(result.diagnostics).toEqual([]);
      return result.sections[0];
    };

    expect(await preamble("Option text {{cwd}}.")).toEqual({
      name: "preamble",
      text: "Option text {{cwd}}.",
      source: { layer: "option" },
    });
    expect(await preamble("../option-prompt.md")).toEqual({
      name: "preamble",
      text: "Option prompt file: {{cwd}} stays literal.",
      source: { layer: "option", path: join(root, "option-prompt.md") },
    });
    expect(await preamble()).toEqual({
      name: "preamble",
      text: "Project SYSTEM.md: {{cwd}} stays literal.",
      source: { layer: "project", path: join(cwd, ".pi", "SYSTEM.md") },
    });
    rmSync(join(cwd, ".pi", "SYSTEM.md"));
    expect(await preamble()).toEqual({
      name: "preamble",
      text: `Project SYSTEM_TEMPLATE.md for a coding agent in ${cwd}.`,
      source: { layer: "project", path: join(cwd, ".pi", "SYSTEM_TEMPLATE.md") },
    });
    rmSync(join(cwd, ".pi", "SYSTEM_TEMPLATE.md"));
    expect(await preamble()).toEqual({
      name: "preamble",
      text: "User SYSTEM.md: {{cwd}} stays literal.",
      source: { layer: "user", path: join(root, "agent", "SYSTEM.md") },
    });
    rmSync(join(root, "agent", "SYSTEM.md"));
    expect(await preamble()).toEqual({
      name: "preamble",
      text: "User SYSTEM_TEMPLATE.md with read, bash, edit, write.",
      source: { layer: "user", path: join(root, "agent", "SYSTEM_TEMPLATE.md") },
    });
    rmSync(join(root, "agent", "SYSTEM_TEMPLATE.md"));
    expect(await preamble()).toEqual(builtin("preamble", PREAMBLE));
  });

  it("replaces preamble, tools, rules and docs with one untagged preamble; every other section stays", async () => {
    const root = copyScenario("layers", "custom-base-precedence");
    const cwd = join(root, "project");
    const result = await renderSystemPrompt(
      pinned(root, { noContextFiles: true, docs: "Docs live in docs/." }),
    );
    expect(result.sections).toEqual([
      {
        name: "preamble",
        text: "Project SYSTEM.md: {{cwd}} stays literal.",
        source: { layer: "project", path: join(cwd, ".pi", "SYSTEM.md") },
      },
      builtin("environment", ENVIRONMENT_SECTION),
      builtin("cwd", cwdSection(cwd)),
      builtin("date", DATE_SECTION),
    ]);
    expect(result.text).toBe(
      [
        "Project SYSTEM.md: {{cwd}} stays literal.",
        ENVIRONMENT_SECTION,
        cwdSection(cwd),
        DATE_SECTION,
      ].join("\n\n"),
    );
  });

  it("a broken SYSTEM_TEMPLATE.md gives a located diagnostic and the builtin base prompt", async () => {
    const root = copyScenario("layers", "system-template-broken");
    const cwd = join(root, "project");
    const result = await renderSystemPrompt(pinned(root, { noContextFiles: true }));
    expect(result.sections).toEqual([
      builtin("preamble", PREAMBLE),
      builtin("tools", DEFAULT_TOOLS_SECTION),
      builtin("rules", DEFAULT_RULES_SECTION),
      builtin("environment", ENVIRONMENT_SECTION),
      builtin("cwd", cwdSection(cwd)),
      builtin("date", DATE_SECTION),
    ]);
    expect(result.diagnostics).toEqual([
      {
        level: "error",
        code: "template",
        message:
          'Block "each" is never closed: expected {{/each}}; the builtin base prompt is used instead',
        path: join(cwd, ".pi", "SYSTEM_TEMPLATE.md"),
        line: 3,
        column: 1,
      },
    ]);
  });
});

describe("addendum", () => {
  it("the project APPEND_SYSTEM.md replaces the user one, then each appended value, joined by blank lines", async () => {
    const root = copyScenario("layers", "append-project-replaces-user");
    const result = await renderSystemPrompt(
      pinned(root, {
        noContextFiles: true,
        appendSystemPrompt: ["  First appended value.  ", "../appended.md", "", "Last."],
      }),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.sections.map((s) => s.name)).toEqual([
      "preamble",
      "tools",
      "rules",
      "addendum",
      "environment",
      "cwd",
      "date",
    ]);
    expect(result.sections[3]).toEqual({
      name: "addendum",
      text: [
        "<addendum>",
        "Project addendum: run npm test before you commit.",
        "",
        "First appended value.",
        "",
        "Appended from a file.",
        "",
        "Last.",
        "</addendum>",
      ].join("\n"),
      source: { layer: "builtin", path: builtinSection("addendum") },
    });
  });

  it("the user APPEND_SYSTEM.md applies when the project has none; a single string value works too", async () => {
    const root = copyScenario("layers", "user-append-only");
    const result = await renderSystemPrompt(
      pinned(root, { noContextFiles: true, appendSystemPrompt: "And one more." }),
    );
    expect(result.sections.find((s) => s.name === "addendum")?.text).toBe(
      "<addendum>\nUser addendum applies when the project has none.\n\nAnd one more.\n</addendum>",
    );
  });
});

describe("projectTrusted: false", () => {
  it("skips project SYSTEM, APPEND and sections with an info diagnostic; context files still load", async () => {
    const root = copyScenario("layers", "untrusted-project");
    const cwd = join(root, "project");
    const trusted = await renderSystemPrompt(pinned(root));
    expect(trusted.sections.map((s) => [s.name, s.source.layer])).toEqual([
      ["preamble", "project"],
      ["addendum", "builtin"],
      ["environment", "builtin"],
      ["project_context", "builtin"],
      ["cwd", "builtin"],
      ["date", "builtin"],
    ]);

    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.sections).toEqual([
      builtin("preamble", PREAMBLE),
      builtin("tools", DEFAULT_TOOLS_SECTION),
      builtin("rules", DEFAULT_RULES_SECTION),
      builtin("environment", ENVIRONMENT_SECTION),
      builtin(
        "project_context",
        [
          "<project_context>",
          "Instructions from the project follow, outermost folder first. Follow them; where two disagree, the file closer to the working directory wins.",
          "",
          `## ${cwd}/AGENTS.md`,
          "",
          "Context files load even from an untrusted project.",
          "</project_context>",
        ].join("\n"),
      ),
      builtin("cwd", cwdSection(cwd)),
      builtin("date", DATE_SECTION),
    ]);
    expect(result.diagnostics).toEqual([
      {
        level: "info",
        code: "project-untrusted",
        message: `project is not trusted: ${cwd}/.pi (SYSTEM, APPEND, sections, skills) skipped; context files still load`,
      },
    ]);
    expect(result.steps.map((s) => [s.name, s.status])).toEqual([
      ["builtin", "ok"],
      ["user", "ok"],
      ["project", "skipped"],
      ["context", "ok"],
      ["skills", "ok"],
      ["tree", "skipped"],
    ]);
  });
});

describe("readTextOrPath", () => {
  it("reads an existing file (relative to cwd), with its BOM stripped and CRLF normalised", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "prompt.md"), "\uFEFFLine one.\r\nLine two.\r\n");
    expect(await readTextOrPath("prompt.md", dir, "--system-prompt")).toEqual({
      text: "Line one.\nLine two.\n",
      path: join(dir, "prompt.md"),
    });
  });

  it("anything that is not an existing path is the text itself", async () => {
    const dir = tempDir();
    for (const value of ["Be brief.", "missing.md", "two\nlines.md", "   ", "x".repeat(5000)]) {
      expect(await readTextOrPath(value, dir, "--system-prompt")).toEqual({ text: value });
    }
  });

  it("an existing folder is an error that says what to pass instead", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "prompts"));
    const error = await readTextOrPath("prompts", dir, "--system-prompt").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyspromptError);
    expect(error).toMatchObject({
      code: "bad-argument",
      message:
        '--system-prompt: "prompts" exists but is not a file; pass a text file or the prompt text itself',
    });
  });

  it("a FIFO is refused without being opened (it would block)", async () => {
    const dir = tempDir();
    execFileSync("mkfifo", [join(dir, "pipe")]);
    await expect(readTextOrPath("pipe", dir, "--append-system-prompt")).rejects.toThrow(
      new SyspromptError(
        "bad-argument",
        '--append-system-prompt: "pipe" exists but is not a file; pass a text file or the prompt text itself',
      ),
    );
  }, 5000);

  it("a binary file is an error, not prompt text", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "blob.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
    await expect(readTextOrPath("blob.bin", dir, "--system-prompt")).rejects.toThrow(
      '--system-prompt: cannot use "blob.bin": binary file skipped',
    );
  });

  it("renderSystemPrompt rejects a folder given as systemPrompt or appendSystemPrompt", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project", "folder"), { recursive: true });
    await expect(
      renderSystemPrompt(pinned(root, { systemPrompt: "folder" })),
    ).rejects.toBeInstanceOf(SyspromptError);
    await expect(
      renderSystemPrompt(pinned(root, { appendSystemPrompt: ["ok", "folder"] })),
    ).rejects.toThrow('--append-system-prompt: "folder" exists but is not a file');
  });
});
