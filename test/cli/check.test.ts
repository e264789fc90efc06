import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { PROMPT_DATA_FIELDS } from "../../src/data.js";
import { BUILTIN, copyScenario } from "../api/_helpers.js";
import { type CliRun, cli, usageHint } from "./_run.js";

/** `sysprompt check` in `<root>/project` with `<root>/agent` as the user layer. */
const check = (root: string, ...args: string[]): Promise<CliRun> =>
  cli(root, ["check", "--agent-dir", join(root, "agent"), ...args], false);

const HELPERS =
  "list, ifAny, ifAll, when, not, has, includes, len, join, default, escapeXml, xml, if, unless, each, with, lookup";

const summary = (checked: string, found: string) => `sysprompt check: ${checked}: ${found}\n`;
const BUILTIN_ONLY = "17 templates, 48 data cases, 0 skills, 0 prompt templates";

describe("sysprompt check", () => {
  it("a clean project (override with base, partial, new section, SYSTEM_TEMPLATE.md, skill, prompt template): exit 0", async () => {
    const root = copyScenario("check", "clean");
    expect(await check(root)).toEqual({
      code: 0,
      stdout: summary("20 templates, 72 data cases, 1 skill, 1 prompt template", "no problems"),
      stderr: "",
    });
  });

  it("a broken override fails (exit 1) and points at file:line:column", async () => {
    const root = copyScenario("check", "broken-override");
    const file = `${root}/project/.pi/sections/tools.md`;
    expect(await check(root)).toEqual({
      code: 1,
      stdout: [
        `error ${file}:7:24 [template-syntax] found a character {{ }} does not allow; expected \`}}\`, \`}}}\`, a name or value, \`)\`, or \`as |…|\`\n`,
        summary(BUILTIN_ONLY, "1 error, 0 warnings, 0 info"),
      ].join(""),
      stderr: "",
    });
  });

  it("names an unknown helper and an unknown field", async () => {
    const root = copyScenario("check", "unknown-helper-and-field");
    const file = `${root}/project/.pi/sections/team.md`;
    expect(await check(root)).toEqual({
      code: 1,
      stdout: [
        `error ${file}:4:16 [unknown-helper] unknown helper "shout"; the helpers are: ${HELPERS}\n`,
        `error ${file}:5:37 [unknown-field] unknown field "label": an item of "toolSnippets" has no field "label" (it has: name, description)\n`,
        summary(BUILTIN_ONLY, "2 errors, 0 warnings, 0 info"),
      ].join(""),
      stderr: "",
    });
  });

  it("an error that shows only with some data is found by the data matrix", async () => {
    const root = copyScenario("check", "data-dependent");
    const file = `${root}/project/.pi/sections/model.md`;
    expect(await check(root)).toEqual({
      code: 1,
      stdout: [
        // The render's word at the file check found a problem in is said too (rev82e F6).
        `warning ${file} [section-tag-reserved] the project's section "model" may not be the prompt's <model> element (a host's, your AGENTS.md's, your own section's, one your texts or the prompt write, or one that acts on the whole page, that no reader shows or whose text a reader reads as raw text, or one HTML knows that does not draw its text in place, or one longer than 128 characters); it is printed as <project_model> instead\n`,
        `error ${file}:5:17 [template-render] Helper "when": takes three arguments ({{#when a "==" b}}), got 1; the section is left out (data: no tools, no skills, builtin base prompt, no tree, several context files)\n`,
        summary(BUILTIN_ONLY, "1 error, 1 warning, 0 info"),
      ].join(""),
      stderr: "",
    });
  });

  it("every variant is compiled and rendered: a {{> base}} with no version below, and an error only its data shows", async () => {
    const root = copyScenario("check", "variants");
    const dir = `${root}/project/.pi/sections`;
    const { code, stdout } = await check(root);
    expect({ code, stdout }).toEqual({
      code: 1,
      stdout: [
        `error ${dir}/extra@any.md:4:5 [unknown-partial] unknown partial "base"; there are no partials here ("base" exists only in a section that overrides a lower layer's, or in a variant beside its layer's plain file)\n`,
        `error ${dir}/extra@any.md:4:18 [unknown-field] unknown field "modle": the template data has no field "modle" (it has: ${PROMPT_DATA_FIELDS.join(", ")})\n`,
        `error ${dir}/team@small.md:5:15 [template-render] Helper "when": takes three arguments ({{#when a "==" b}}), got 1; the project version is used instead (data: bash only, skills, builtin base prompt, no tree, no context files)\n`,
        summary(
          "19 templates, 48 data cases, 0 skills, 0 prompt templates",
          "3 errors, 0 warnings, 0 info",
        ),
      ].join(""),
    });
  });

  it("a warning passes (exit 0), and fails under --strict (exit 1)", async () => {
    const root = copyScenario("check", "warning-only");
    const line = `warning ${root}/project/.pi/sections/team.md:2 [section-meta] frontmatter "order" must be a number; ignored\n`;
    expect(await check(root)).toEqual({
      code: 0,
      stdout: line + summary(BUILTIN_ONLY, "0 errors, 1 warning, 0 info"),
      stderr: "",
    });
    expect(await check(root, "--strict")).toEqual({
      code: 1,
      stdout: line + summary(BUILTIN_ONLY, "0 errors, 1 warning, 0 info (--strict: warnings fail)"),
      stderr: "",
    });
  });

  it("reports every skill and prompt-template problem the loaders find", async () => {
    const root = copyScenario("resources", "list-reports-collisions-and-bad-files");
    const [agent, pi] = [`${root}/agent`, `${root}/project/.pi`];
    expect(await check(root)).toEqual({
      code: 1,
      stdout: [
        `warning ${pi}/prompts/broken.md:2:1 [frontmatter-not-mapping] prompt template skipped: frontmatter must be a YAML mapping of keys to values\n`,
        `warning ${pi}/prompts/review.md [user-text-left-out] your prompt template "/review" (${agent}/prompts/review.md) is left out: the project's ${pi}/prompts/review.md of the same name takes its place (a trusted project's template of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back\n`,
        `warning ${pi}/skills/Bad_Name/SKILL.md [skill-name-invalid] name "Bad_Name" should use only lowercase letters a-z, digits 0-9 and hyphens\n`,
        `warning ${pi}/skills/lint/SKILL.md [user-text-left-out] your skill "lint" (${agent}/skills/lint/SKILL.md) is left out: the project's ${pi}/skills/lint/SKILL.md of the same name takes its place (a trusted project's skill of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back\n`,
        `error ${pi}/skills/no-description/SKILL.md [skill-description-required] description is required; skill not loaded\n`,
        summary(
          "16 templates, 48 data cases, 2 skills, 1 prompt template",
          "1 error, 4 warnings, 0 info",
        ),
      ].join(""),
      stderr: "",
    });
  });

  it("--untrusted skips the project's files, with a note", async () => {
    const root = copyScenario("check", "unknown-helper-and-field");
    expect(await check(root, "--untrusted")).toEqual({
      code: 0,
      stdout: [
        `info [project-untrusted] project is not trusted: ${root}/project/.pi (SYSTEM, APPEND, sections, skills) skipped; context files still load\n`,
        summary(
          "16 templates, 48 data cases, 0 skills, 0 prompt templates",
          "0 errors, 0 warnings, 1 info",
        ),
      ].join(""),
      stderr: "",
    });
  });

  it("--cwd points at another project (here one with no project layer)", async () => {
    const root = copyScenario("check", "unknown-helper-and-field");
    mkdirSync(join(root, "elsewhere"));
    expect(await check(root, "--cwd", join(root, "elsewhere"))).toEqual({
      code: 0,
      stdout: summary("16 templates, 48 data cases, 0 skills, 0 prompt templates", "no problems"),
      stderr: "",
    });
  });

  it("a --cwd or --agent-dir that is not a folder is bad usage (exit 2), as for render", async () => {
    const root = copyScenario("check", "clean");
    expect(await check(root, "--cwd", "../nowhere")).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: cwd: there is no folder at ${root}/nowhere; pass the project's folder\n${usageHint("check")}`,
    });
    expect(await cli(root, ["check", "--agent-dir", "../no-agent"], false)).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: agentDir: there is no folder at ${root}/no-agent; pass an existing folder, or leave it out for $SYSPROMPT_AGENT_DIR or ~/.pi/agent\n${usageHint("check")}`,
    });
  });

  it("--json prints the whole report with ok and strict", async () => {
    const root = copyScenario("check", "unknown-helper-and-field");
    const { code, stdout, stderr } = await check(root, "--json", "--strict");
    const file = `${root}/project/.pi/sections/team.md`;
    const builtin = (name: string) => ({
      kind: "section",
      name: name.split("@")[0],
      layer: "builtin",
      path: join(BUILTIN, "sections", `${name}.md`),
    });
    expect([code, stderr]).toEqual([1, ""]);
    expect(JSON.parse(stdout)).toEqual({
      ok: false,
      strict: true,
      diagnostics: [
        {
          level: "error",
          code: "unknown-helper",
          message: `unknown helper "shout"; the helpers are: ${HELPERS}`,
          path: file,
          line: 4,
          column: 16,
        },
        {
          level: "error",
          code: "unknown-field",
          message:
            'unknown field "label": an item of "toolSnippets" has no field "label" (it has: name, description)',
          path: file,
          line: 5,
          column: 37,
        },
      ],
      counts: { error: 2, warning: 0, info: 0 },
      templates: [
        ...[
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
        ].map(builtin),
        { kind: "section", name: "team", layer: "project", path: file },
      ],
      dataCases: 48,
      skills: 0,
      promptTemplates: 0,
    });
  });

  it("an unknown flag is bad usage (exit 2)", async () => {
    const root = copyScenario("check", "clean");
    expect((await check(root, "--strikt")).code).toBe(2);
  });

  it("--help lists the flags and shows an example", async () => {
    const root = copyScenario("check", "clean");
    expect(await cli(root, ["check", "--help"], false)).toEqual({
      code: 0,
      stdout: [
        "Usage: sysprompt check [options]",
        "",
        "compile and validate every template, skill and prompt template",
        "",
        "Options:",
        "  --cwd <dir>        working directory (default: the current one)",
        "  --agent-dir <dir>  user layer folder (default: $SYSPROMPT_AGENT_DIR or",
        "                     ~/.pi/agent)",
        "  --untrusted        skip the project's SYSTEM/APPEND/sections/skills/templates",
        "  --strict           warnings fail too (exit 1)",
        "  --json             print the whole report as JSON",
        "  -h, --help         display help for command",
        "",
        "Example:",
        "  $ sysprompt check --strict    # the line a project adds to its CI",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("the unknown-field message lists the schema's fields", async () => {
    const root = copyScenario("check", "clean");
    writeFileSync(join(root, "project", ".pi", "sections", "team.md"), "{{agent}}\n");
    expect((await check(root)).stdout.split("\n")[0]).toBe(
      `error ${root}/project/.pi/sections/team.md:1:3 [unknown-field] unknown field "agent": the template data has no field "agent" (it has: ${PROMPT_DATA_FIELDS.join(", ")})`,
    );
  });
});

describe("colours", () => {
  async function runWith(root: string, isTTY: boolean, env: Record<string, string>) {
    mkdirSync(join(root, "agent"), { recursive: true });
    let stdout = "";
    const code = await run(["check", "--agent-dir", join(root, "agent")], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => {},
      cwd: join(root, "project"),
      env,
      home: join(root, "home"),
      isTTY,
    });
    return { code, stdout };
  }

  it("on a terminal the level and the summary are coloured", async () => {
    const root = copyScenario("check", "warning-only");
    const { stdout } = await runWith(root, true, {});
    expect(stdout).toBe(
      `\u001b[33mwarning\u001b[39m ${root}/project/.pi/sections/team.md:2 [section-meta] frontmatter "order" must be a number; ignored\n\u001b[33m${summary(BUILTIN_ONLY, "0 errors, 1 warning, 0 info").trimEnd()}\u001b[39m\n`,
    );
  });

  it("off when NO_COLOR is set, and off when stdout is not a terminal", async () => {
    const root = copyScenario("check", "warning-only");
    const plain = `warning ${root}/project/.pi/sections/team.md:2 [section-meta] frontmatter "order" must be a number; ignored\n${summary(BUILTIN_ONLY, "0 errors, 1 warning, 0 info")}`;
    expect((await runWith(root, true, { NO_COLOR: "1" })).stdout).toBe(plain);
    expect((await runWith(root, false, {})).stdout).toBe(plain);
  });
});
