import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rulesFixture, trace } from "./_helpers.js";

/**
 * test/fixtures/rules/drifted-formats: a file for each way an agent's reader
 * moved since the formats were first written down (the sources are cited in
 * src/gather/rules/formats.ts), each read as that agent reads it today.
 */
const ROO_MODE = (mode: string) =>
  `Roo adds it only in its "${mode}" mode, and this prompt is in no Roo mode`;

describe("formats as their agents read them today", () => {
  it("accounts for every file: read, listed, or left out with the reason", async () => {
    const dir = rulesFixture("drifted-formats");
    const traced = await trace(dir);
    const rel = (p: string) => p.slice(dir.length + 1);
    expect(
      traced.accounts.map((a) => [
        rel(a.path),
        a.source,
        a.activation ?? null,
        a.fate.status === "disabled" ? a.fate.reason : a.fate.status,
      ]),
    ).toEqual([
      // Cursor: frontmatter chooses the activation of an .mdc; a plain .md is @-mentioned only.
      [".cursor/rules/plain.md", "cursor", "manual", "manual"],
      [".github/instructions/agent.instructions.md", "copilot", "always", "inlined"],
      [
        ".github/instructions/review.instructions.md",
        "copilot",
        "always",
        'excludeAgent: "coding-agent" (Copilot keeps it from coding agents)',
      ],
      [".claude/CLAUDE.md", "claude", "always", "inlined"],
      ["CLAUDE.local.md", "claude", "always", "inlined"],
      // context.fileName of .gemini/settings.json: both names; "../x.md" is refused with a warning.
      [
        ".gemini/GEMINI.md",
        "gemini",
        null,
        "Gemini CLI reads GEMINI.md from ~/.gemini only, never from a project's .gemini folder",
      ],
      ["CONTEXT.md", "gemini", "always", "inlined"],
      ["GEMINI.md", "gemini", "always", "inlined"],
      // Roo's mode rules (a folder, or a file in the folder itself) apply in that mode only;
      // .roorules only in place of .roo/rules.
      [".clinerules-debug", "roo", null, ROO_MODE("debug")],
      [".roo/rules-code/tests.md", "roo", null, ROO_MODE("code")],
      [".roo/rules/general.md", "roo", "always", "inlined"],
      [
        ".roorules",
        "roo",
        null,
        "Roo reads .roorules only when .roo/rules holds no file, and it holds some",
      ],
      [".roorules-architect", "roo", null, ROO_MODE("architect")],
      ["AGENTS.local.md", "roo", "always", "inlined"],
      [".continue/prompts/context.md", "continue", "always", "inlined"],
      [
        ".continue/prompts/review.md",
        "continue",
        "always",
        "invokable: true (a slash command in Continue, not a rule)",
      ],
      [".continue/rules/plain.md", "continue", "always", "inlined"],
      [".continue/rules/schemas.md", "continue", "model", "listed"],
      [".continue/rules/web/components.md", "continue", "glob", "listed"],
      ["AGENT.md", "continue", "always", "inlined"],
    ]);
    const byName = new Map(traced.rules.map((r) => [r.name, r]));
    // Continue's `name` names the rule; `regex` alone is offered by description.
    expect(byName.get("React components")?.globs).toEqual(["src/**/*.tsx"]);
    expect(byName.get("Zod schemas")?.description).toBe(
      "Applies when a file's text matches /z\\.object/",
    );
    expect(byName.get("Prompt folder rule")?.content).toBe(
      "A prompt file that is not invokable is a rule.",
    );
    expect(traced.diagnostics.filter((d) => d.code === "gemini-settings")).toEqual([
      {
        level: "warning",
        code: "gemini-settings",
        message: 'context.fileName "../x.md" is not one file name; left out',
        path: `${dir}/.gemini/settings.json`,
      },
    ]);
  });

  it("Roo reads .roorules only when .roo/rules holds no file", async () => {
    const dir = rulesFixture("drifted-formats");
    rmSync(join(dir, ".roo", "rules"), { recursive: true });
    mkdirSync(join(dir, ".roo", "rules"));
    writeFileSync(join(dir, ".roo", "rules", ".keep"), "");
    const traced = await trace(dir, ".", { sources: ["roo"] });
    const fate = (rel: string) => traced.accounts.find((a) => a.path === `${dir}/${rel}`)?.fate;
    // Any file there, an empty one too, is what Roo reads instead (custom-instructions.ts at cb83656718).
    expect(fate(".roorules")?.status).toBe("disabled");
    rmSync(join(dir, ".roo", "rules"), { recursive: true });
    const without = await trace(dir, ".", { sources: ["roo"] });
    expect(without.accounts.find((a) => a.path === `${dir}/.roorules`)?.fate).toEqual({
      status: "inlined",
    });
  });
});
