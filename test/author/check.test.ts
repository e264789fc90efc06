import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject } from "../../src/author/check.js";
import { PROMPT_DATA_FIELDS } from "../../src/data.js";
import { BUILTIN, tempDir } from "../api/_helpers.js";

const BUILTIN_SECTIONS = [
  "addendum",
  "cwd",
  "date",
  "dir_context",
  "docs",
  "environment",
  "preamble",
  "project_context",
  "rules",
  "skills",
  "tools",
  "workspace_roots",
  "workspace_tree",
];

/** An empty project, agent dir and home: only the builtin layer has anything. */
function emptySetup(root: string) {
  for (const dir of ["project", "agent", "home"]) mkdirSync(join(root, dir));
  return {
    cwd: join(root, "project"),
    agentDir: join(root, "agent"),
    home: join(root, "home"),
    env: {},
  };
}

describe("checkProject on the builtin prompts", () => {
  it("finds nothing: every builtin section compiles, resolves and renders with every data case", async () => {
    const report = await checkProject(emptySetup(tempDir()));
    expect(report).toEqual({
      diagnostics: [],
      counts: { error: 0, warning: 0, info: 0 },
      templates: BUILTIN_SECTIONS.map((name) => ({
        kind: "section",
        name,
        layer: "builtin",
        path: join(BUILTIN, "sections", `${name}.md`),
      })),
      dataCases: 48,
      skills: 0,
      promptTemplates: 0,
    });
  });

  it("would fail on a broken builtin: a copy with a typo and a data-dependent error", async () => {
    const root = tempDir();
    const builtinDir = join(root, "prompts");
    cpSync(BUILTIN, builtinDir, { recursive: true });
    const rules = join(builtinDir, "sections", "rules.md");
    writeFileSync(rules, "---\norder: 30\n---\n{{#list rule}}{{this}}{{/list}}\n");
    const env = join(builtinDir, "sections", "environment.md");
    writeFileSync(env, "---\norder: 60\n---\n{{#if model}}{{#when model}}x{{/when}}{{/if}}\n");
    const report = await checkProject({ ...emptySetup(root), builtinDir });
    expect(report.diagnostics).toEqual([
      {
        level: "error",
        code: "template-render",
        message:
          'Helper "when": takes three arguments ({{#when a "==" b}}), got 1; the section is left out (data: no tools, no skills, builtin base prompt, no tree, several context files)',
        path: env,
        line: 4,
        column: 14,
      },
      {
        level: "error",
        code: "unknown-field",
        message: `unknown field "rule": the template data has no field "rule" (it has: ${PROMPT_DATA_FIELDS.join(", ")})`,
        path: rules,
        line: 4,
        column: 9,
      },
    ]);
    expect(report.counts).toEqual({ error: 2, warning: 0, info: 0 });
  });
});
