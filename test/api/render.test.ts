import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  preparePrompt,
  renderPrepared,
  renderSystemPrompt,
} from "../../src/render-system-prompt.js";
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
} from "./_helpers.js";

/** The builtin workspace_roots section's first line. */
const ROOTS_INTRO =
  "Besides the working directory, this workspace has these folders. This list is the current one: where an earlier message names other workspace folders, this list replaces it. Refer to files in these folders by absolute path.";

describe("renderSystemPrompt", () => {
  it("an empty folder gives the builtin prompt: whole result, steps in a fixed order", async () => {
    const root = tempDir();
    const cwd = join(root, "project");
    const result = await renderSystemPrompt(pinned(root));
    const builtin = (name: string, text: string) => ({
      name,
      text,
      source: { layer: "builtin", path: builtinSection(name) },
    });
    expect({ ...result, steps: result.steps.map((s) => ({ ...s, ms: 0 })) }).toEqual({
      text: [
        PREAMBLE,
        DEFAULT_TOOLS_SECTION,
        DEFAULT_RULES_SECTION,
        cwdSection(cwd),
        ENVIRONMENT_SECTION,
        DATE_SECTION,
      ].join("\n\n"),
      blocks: [
        {
          cache: "stable",
          sections: ["preamble", "tools", "rules", "cwd"],
          text: `${[PREAMBLE, DEFAULT_TOOLS_SECTION, DEFAULT_RULES_SECTION, cwdSection(cwd)].join("\n\n")}\n\n`,
        },
        {
          cache: "session",
          sections: ["environment", "date"],
          text: `${ENVIRONMENT_SECTION}\n\n${DATE_SECTION}`,
        },
      ],
      sections: [
        builtin("preamble", PREAMBLE),
        builtin("tools", DEFAULT_TOOLS_SECTION),
        builtin("rules", DEFAULT_RULES_SECTION),
        builtin("cwd", cwdSection(cwd)),
        builtin("environment", ENVIRONMENT_SECTION),
        builtin("date", DATE_SECTION),
      ],
      diagnostics: [],
      steps: [
        ...["builtin", "user", "project", "context", "rule-files", "skills", "environment"].map(
          (name) => ({
            name,
            status: "ok",
            ms: 0,
          }),
        ),
        { name: "git", status: "skipped", ms: 0 },
        { name: "tree", status: "skipped", ms: 0 },
      ],
    });
  });

  it("agentName, docs and roots reach their sections", async () => {
    const root = tempDir();
    mkdirSync(join(root, "lib"));
    const result = await renderSystemPrompt(
      pinned(root, {
        agentName: "Pinned Agent",
        docs: "See docs/ for the API.",
        roots: ["../lib"],
      }),
    );
    expect(result.sections.map((s) => s.name)).toEqual([
      "preamble",
      "tools",
      "rules",
      "docs",
      "cwd",
      "environment",
      "workspace_roots",
      "date",
    ]);
    expect(result.sections[0]?.text.startsWith("You are Pinned Agent. ")).toBe(true);
    expect(result.sections[3]?.text).toBe("<docs>\nSee docs/ for the API.\n</docs>");
    expect(result.sections[6]?.text).toBe(
      `<workspace_roots>\n${ROOTS_INTRO}\n- ${root}/lib\n</workspace_roots>`,
    );
  });

  it("now may be a Date or epoch milliseconds; a bad one is a SyspromptError", async () => {
    const root = tempDir();
    const date = async (now: Date | number | string) =>
      (await renderSystemPrompt(pinned(root, { now }))).sections.at(-1)?.text;
    expect(await date(new Date("2026-01-15T23:59:59Z"))).toBe(DATE_SECTION);
    expect(await date(Date.UTC(2026, 0, 15, 10))).toBe(DATE_SECTION);
    await expect(renderSystemPrompt(pinned(root, { now: "yesterday" }))).rejects.toThrow(
      new SyspromptError(
        "bad-option",
        'now: "yesterday" is not an ISO 8601 date or time; pass one such as 2026-01-31 or 2026-01-31T12:00:00Z (a time without an offset is UTC)',
      ),
    );
  });

  it("renderPrepared is pure: the same prepared input gives the same result every time", async () => {
    const prepared = await preparePrompt(pinned(tempDir()));
    const first = renderPrepared(prepared);
    expect(renderPrepared(prepared)).toEqual(first);
    expect(renderPrepared(structuredClone(prepared))).toEqual(first);
  });
});

describe("the sections option", () => {
  it("adds new sections after the stable template sections and before the session ones (environment, date), in insertion order, tagged by name; an existing name is replaced in place", async () => {
    const root = tempDir();
    const cwd = join(root, "project");
    const result = await renderSystemPrompt(
      pinned(root, {
        sections: { zeta: "Added first.", tools: "Only the tools I say.", alpha: "Added second." },
      }),
    );
    expect(result.sections).toEqual([
      {
        name: "preamble",
        text: PREAMBLE,
        source: { layer: "builtin", path: builtinSection("preamble") },
      },
      {
        name: "tools",
        text: "<tools>\nOnly the tools I say.\n</tools>",
        source: { layer: "option" },
      },
      {
        name: "rules",
        text: DEFAULT_RULES_SECTION,
        source: { layer: "builtin", path: builtinSection("rules") },
      },
      {
        name: "cwd",
        text: cwdSection(cwd),
        source: { layer: "builtin", path: builtinSection("cwd") },
      },
      { name: "zeta", text: "<zeta>\nAdded first.\n</zeta>", source: { layer: "option" } },
      { name: "alpha", text: "<alpha>\nAdded second.\n</alpha>", source: { layer: "option" } },
      {
        name: "environment",
        text: ENVIRONMENT_SECTION,
        source: { layer: "builtin", path: builtinSection("environment") },
      },
      {
        name: "date",
        text: DATE_SECTION,
        source: { layer: "builtin", path: builtinSection("date") },
      },
    ]);
  });

  it("an invalid name, or system (the custom base prompt's), is a SyspromptError that names the rule", async () => {
    const root = tempDir();
    for (const name of ["Team", "1st", "my notes", ""]) {
      await expect(renderSystemPrompt(pinned(root, { sections: { [name]: "x" } }))).rejects.toThrow(
        new SyspromptError(
          "bad-option",
          `sections: "${name}" is not a valid section name; use ^[a-z][a-z0-9_-]*$`,
        ),
      );
    }
    await expect(renderSystemPrompt(pinned(root, { sections: { system: "x" } }))).rejects.toThrow(
      new SyspromptError(
        "bad-option",
        'sections: "system" is the custom base prompt, not a section; pass it as systemPrompt',
      ),
    );
    await expect(
      renderSystemPrompt(pinned(root, { sections: { notes: 42 as unknown as string } })),
    ).rejects.toThrow('sections: the value of "notes" must be a string');
  });
});

describe("the sections option and the preamble", () => {
  it("preamble from code replaces the preamble's body in place", async () => {
    const root = tempDir();
    const result = await renderSystemPrompt(pinned(root, { sections: { preamble: "Be brief." } }));
    expect(result.sections.slice(0, 2)).toEqual([
      { name: "preamble", text: "Be brief.", source: { layer: "option" } },
      {
        name: "tools",
        text: DEFAULT_TOOLS_SECTION,
        source: { layer: "builtin", path: builtinSection("tools") },
      },
    ]);
  });
});

describe("determinism", () => {
  it("two renders of the same fixture are byte-identical", async () => {
    const root = copyScenario("layers", "project-over-user-over-builtin");
    const a = await renderSystemPrompt(pinned(root));
    const b = await renderSystemPrompt(pinned(root));
    expect(b.text).toBe(a.text);
    expect(b.sections).toEqual(a.sections);
    expect(b.diagnostics).toEqual(a.diagnostics);
  });

  it("CRLF (and a BOM) in an override gives the same output as LF", async () => {
    const root = copyScenario("layers", "project-over-user-over-builtin");
    const lf = await renderSystemPrompt(pinned(root));
    for (const file of [
      join(root, "agent", "sections", "cwd.md"),
      join(root, "project", ".pi", "sections", "cwd.md"),
    ]) {
      const text = readFileSync(file, "utf8");
      writeFileSync(file, `\uFEFF${text.replaceAll("\n", "\r\n")}`);
    }
    const crlf = await renderSystemPrompt(pinned(root));
    expect(crlf.text).toBe(lf.text);
    expect(crlf.text.includes("\r")).toBe(false);
  });
});
