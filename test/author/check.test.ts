import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { PROMPT_DATA_FIELDS } from "../../src/data.js";
import { BUILTIN, tempDir } from "../api/_helpers.js";

const BUILTIN_SECTIONS = [
  "addendum",
  "cwd",
  "date",
  "dir_context",
  "docs",
  "environment",
  "git",
  "preamble",
  "project_context",
  "project_rules",
  "rules",
  "rules@small",
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
        name: name.split("@")[0],
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

  it("checks SYSTEM_TEMPLATE.md (statically and with the data cases) and partials of every layer", async () => {
    const root = tempDir();
    const setup = emptySetup(root);
    const system = join(setup.agentDir, "SYSTEM_TEMPLATE.md");
    writeFileSync(system, "You are {{agentName}}.\n{{#if docs}}{{#when docs}}x{{/when}}{{/if}}\n");
    const projectSystem = join(setup.cwd, ".pi", "SYSTEM_TEMPLATE.md");
    mkdirSync(join(setup.cwd, ".pi", "partials"), { recursive: true });
    writeFileSync(projectSystem, "{{> sig}}\n");
    writeFileSync(join(setup.cwd, ".pi", "SYSTEM.md"), "Literal base prompt.\n");
    const partial = join(setup.cwd, ".pi", "partials", "sig.md");
    writeFileSync(partial, "---\nnote: a partial\n---\n-- {{team}}\n");
    const report = await checkProject(setup);
    expect(report.diagnostics).toEqual([
      {
        level: "error",
        code: "template-render",
        message:
          'Helper "when": takes three arguments ({{#when a "==" b}}), got 1; the builtin base prompt is used instead (data: no tools, no skills, base prompt from ' +
          `${system}, no tree, several context files)`,
        path: system,
        line: 2,
        column: 13,
      },
      {
        // What a render of this project says, check says too (fx82d).
        level: "warning",
        code: "user-text-left-out",
        message: `your ${system} is left out: the project's ${join(setup.cwd, ".pi", "SYSTEM.md")} takes its place (a project's file of this name replaces yours, as in pi; it is not added to it); run with --untrusted, or remove the project's file, to have yours back`,
        path: join(setup.cwd, ".pi", "SYSTEM.md"),
      },
      {
        level: "info",
        code: "ignored-file",
        message: "ignored: both SYSTEM.md and SYSTEM_TEMPLATE.md exist; SYSTEM.md is used",
        path: projectSystem,
      },
      {
        level: "warning",
        code: "unknown-field",
        message: `unknown field "team": the template data has no field "team" (it has: ${PROMPT_DATA_FIELDS.join(", ")})`,
        path: partial,
        line: 4,
        column: 6,
      },
    ]);
    expect(report.templates.filter((t) => t.layer !== "builtin")).toEqual([
      { kind: "system-template", name: "SYSTEM_TEMPLATE", layer: "user", path: system },
      { kind: "partial", name: "sig", layer: "project", path: partial },
      { kind: "system-template", name: "SYSTEM_TEMPLATE", layer: "project", path: projectSystem },
    ]);
    // 3 tool sets × 2 skill sets × 2 trees × 2 context sets, for each of 4 base prompts.
    expect(report.dataCases).toEqual(24 * 4);
  });
});
