import { describe, expect, it } from "vitest";
import { nameKey } from "../../../src/_paths.js";
import { dedupeLoaded, ruleLocationOf } from "../../../src/gather/rules/index.js";
import { rulesFixture, trace } from "./_helpers.js";

describe("every format, project root down to cwd", () => {
  it("reads each format with its activation, in format, folder, path order, and accounts for every file", async () => {
    const dir = rulesFixture("every-format", "project");
    const out = await trace(dir, "project/sub");
    const rel = (p: string) => p.slice(dir.length + 1);
    expect(
      out.accounts.map((a) => [rel(a.path), a.source, a.layer, a.activation, a.fate.status]),
    ).toEqual([
      ["agent/rules/mine.md", "sysprompt", "user", "always", "inlined"],
      ["project/sub/.pi/rules/own.md", "sysprompt", "project", "always", "inlined"],
      ["project/.cursorrules", "cursor", "project", "always", "inlined"],
      ["project/sub/.cursor/rules/db.mdc", "cursor", "project", "model", "listed"],
      ["project/sub/.cursor/rules/manual.md", "cursor", "project", "manual", "manual"],
      ["project/sub/.cursor/rules/testing.mdc", "cursor", "project", "always", "inlined"],
      ["project/sub/.cursor/rules/web/react.mdc", "cursor", "project", "glob", "listed"],
      ["project/.windsurf/rules/commits.md", "windsurf", "project", "always", "inlined"],
      ["project/.windsurf/rules/python.md", "windsurf", "project", "glob", "listed"],
      ["project/.windsurfrules", "windsurf", "project", "always", "inlined"],
      ["project/.clinerules/docs.md", "cline", "project", "glob", "listed"],
      ["project/.clinerules/lint.md", "cline", "project", "always", "inlined"],
      ["project/.clinerules/off.md", "cline", "project", "always", "disabled"],
      ["project/.github/copilot-instructions.md", "copilot", "project", "always", "inlined"],
      [
        "project/.github/instructions/all.instructions.md",
        "copilot",
        "project",
        "always",
        "inlined",
      ],
      [
        "project/.github/instructions/review.instructions.md",
        "copilot",
        "project",
        "always",
        "disabled",
      ],
      ["project/.github/instructions/ts.instructions.md", "copilot", "project", "glob", "listed"],
      ["project/.claude/CLAUDE.md", "claude", "project", "always", "inlined"],
      ["project/.claude/rules/api.md", "claude", "project", "glob", "listed"],
      ["project/.claude/rules/changelog.md", "claude", "project", "always", "inlined"],
      ["project/CLAUDE.local.md", "claude", "project", "always", "inlined"],
      ["project/.gemini/GEMINI.md", "gemini", "project", undefined, "disabled"],
      ["project/GEMINI.md", "gemini", "project", "always", "inlined"],
      ["project/.kiro/steering/components.md", "kiro", "project", "glob", "listed"],
      ["project/.kiro/steering/deploy.md", "kiro", "project", "model", "listed"],
      ["project/.kiro/steering/product.md", "kiro", "project", "always", "inlined"],
      ["project/.clinerules-debug", "roo", "project", undefined, "disabled"],
      ["project/.roo/rules-code/tests.md", "roo", "project", undefined, "disabled"],
      ["project/.roo/rules/deps.md", "roo", "project", "always", "inlined"],
      // Roo reads .roorules only in place of .roo/rules.
      ["project/.roorules", "roo", "project", undefined, "disabled"],
      ["project/.roorules-architect", "roo", "project", undefined, "disabled"],
      ["project/AGENTS.local.md", "roo", "project", "always", "inlined"],
      ["project/.continue/prompts/review.md", "continue", "project", "always", "disabled"],
      ["project/.continue/rules/docs.md", "continue", "project", "always", "inlined"],
      ["project/AGENT.md", "continue", "project", "always", "inlined"],
      ["project/.rules", "zed", "project", "always", "inlined"],
    ]);
    // The on-demand rules keep their globs as written, split and unquoted.
    expect(
      out.rules
        .filter((r) => r.activation === "glob" || r.activation === "model")
        .map((r) => [r.name, r.activation, r.globs, r.description ?? null]),
    ).toEqual([
      ["db", "model", [], "When touching the database layer"],
      ["web/react", "glob", ["*.tsx", "*.jsx"], "React components"],
      ["python", "glob", ["**/*.py"], null],
      ["docs", "glob", ["docs/**"], null],
      ["ts", "glob", ["src/**/*.ts", "test/**/*.ts"], null],
      ["api", "glob", ["src/api/**"], null],
      ["components", "glob", ["components/**/*.tsx"], null],
      ["deploy", "model", [], "Deploying to production"],
    ]);
    // The same text in .cursorrules and .windsurfrules appears once.
    const deduped = dedupeLoaded(out, []);
    expect(deduped.accounts.find((a) => a.path.endsWith(".windsurfrules"))?.fate).toEqual({
      status: "deduped",
      containedIn: `${dir}/project/.cursorrules`,
    });
    expect(deduped.diagnostics).toEqual([
      {
        level: "info",
        code: "rule-duplicate",
        message: `rule not inlined: every paragraph of it is already stated in ${dir}/project/.cursorrules`,
        path: `${dir}/project/.windsurfrules`,
      },
    ]);
    // The step's value is not changed: a session reuses it.
    expect(out.accounts.find((a) => a.path.endsWith(".windsurfrules"))?.fate.status).toBe(
      "inlined",
    );
  });

  it("reads only the folders between the project root and cwd, never above the root", async () => {
    const dir = rulesFixture("every-format", "project/sub");
    const out = await trace(dir, "project/sub");
    expect(out.accounts.every((a) => a.path.includes("/sub/") || a.layer === "user")).toBe(true);
    expect(out.accounts.map((a) => a.path.slice(dir.length + 1))).toContain(
      "project/sub/.cursor/rules/testing.mdc",
    );
    expect(out.accounts.some((a) => a.path.endsWith("project/.cursorrules"))).toBe(false);
  });

  it("ruleSources picks formats; [] reads none", async () => {
    const dir = rulesFixture("every-format", "project");
    const only = await trace(dir, "project/sub", { sources: ["gemini", "zed"] });
    expect(only.rules.map((r) => [r.source, r.name])).toEqual([
      ["gemini", "GEMINI"],
      ["zed", ".rules"],
    ]);
    expect(await trace(dir, "project/sub", { sources: [] })).toEqual({
      rules: [],
      accounts: [],
      diagnostics: [],
    });
  });

  it("an unknown source is the caller's error, with the near name (the list when none is near)", async () => {
    const dir = rulesFixture("every-format", "project");
    await expect(trace(dir, "project", { sources: ["cursr"] })).rejects.toThrow(
      'ruleSources: has the unknown rule source "cursr"; did you mean "cursor"?',
    );
  });
});

describe("ruleLocationOf: where a path's tail is a rule format's place (review rev98a F3)", () => {
  const of = (path: string) => ruleLocationOf(path.split("/"), nameKey, ".pi");
  it.each([
    ["srv/p/.github/copilot-instructions.md", "copilot", ".github/copilot-instructions.md", 2],
    ["srv/p/.GitHub/Copilot-Instructions.md", "copilot", ".GitHub/Copilot-Instructions.md", 2],
    [
      "p/.github/instructions/a/x.instructions.md",
      "copilot",
      ".github/instructions/a/x.instructions.md",
      1,
    ],
    ["p/.cursor/rules/a/b.mdc", "cursor", ".cursor/rules/a/b.mdc", 1],
    ["p/.roorules-code", "roo", ".roorules-code", 1],
    ["p/.roo/rules-code/x.md", "roo", ".roo/rules-code/x.md", 1],
    ["p/.clinerules", "cline", ".clinerules", 1],
    ["p/.pi/rules/x.md", "sysprompt", ".pi/rules/x.md", 1],
    ["p/CLAUDE.local.md", "claude", "CLAUDE.local.md", 1],
  ])("%s: %s's %s", (path, source, rel, folderNames) => {
    expect(of(path)).toEqual({ source, rel, folderNames });
  });
  it.each([
    "p/.github/notes.md",
    "p/.github/instructions/x.md",
    "p/.cursor/rules/x.txt",
    "p/.windsurf/rules/a/x.md",
    "p/rules/x.md",
    "p/docs/x.md",
  ])("%s: none", (path) => {
    expect(of(path)).toBeUndefined();
  });
});
