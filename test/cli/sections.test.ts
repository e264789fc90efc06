import { describe, expect, it } from "vitest";
import { BUILTIN, copyScenario } from "../api/_helpers.js";
import { cli, pinMachine } from "./_run.js";

pinMachine();

describe("sysprompt sections", () => {
  it("lists every section template with order, name, layer, status in this render, flags and file", async () => {
    const root = copyScenario("cli", "project-with-layers");
    const b = (name: string) => `${BUILTIN}sections/${name}.md`;
    const rows = [
      ["ORDER", "NAME", "LAYER", "STATUS", "FLAGS", "FILE"],
      ["10", "preamble", "builtin", "rendered", "base", b("preamble")],
      ["20", "tools", "builtin", "rendered", "base", b("tools")],
      ["30", "rules", "builtin", "rendered", "base", b("rules")],
      ["40", "docs", "builtin", "empty", "base", b("docs")],
      ["50", "addendum", "builtin", "empty", "shrink:45", b("addendum")],
      ["65", "team", "project", "rendered", "-", `${root}/project/.pi/sections/team.md`],
      ["70", "project_context", "builtin", "rendered", "shrink:40", b("project_context")],
      ["75", "project_rules", "builtin", "empty", "shrink:35", b("project_rules")],
      ["110", "skills", "builtin", "empty", "shrink:30", b("skills")],
      ["120", "cwd", "user", "rendered", "overrides:builtin", `${root}/agent/sections/cwd.md`],
      ["140", "environment", "builtin", "rendered", "session", b("environment")],
      ["150", "dir_context", "builtin", "empty", "session,shrink:20", b("dir_context")],
      ["160", "workspace_tree", "builtin", "empty", "session,shrink:10", b("workspace_tree")],
      ["170", "workspace_roots", "builtin", "empty", "session", b("workspace_roots")],
      ["175", "git", "builtin", "empty", "session", b("git")],
      ["180", "date", "builtin", "rendered", "session", b("date")],
    ];
    const table = rows
      .map(
        ([order, name, layer, status, flags, file]) =>
          `${order?.padEnd(5)}  ${name?.padEnd(15)}  ${layer?.padEnd(7)}  ${status?.padEnd(8)}  ${flags?.padEnd(17)}  ${file}\n`,
      )
      .join("");
    expect(await cli(root, ["sections"])).toEqual({ code: 0, stdout: table, stderr: "" });
  });

  it("a custom base prompt marks the base sections replaced and names its source", async () => {
    const root = copyScenario("cli", "project-with-layers");
    const { code, stdout } = await cli(root, ["sections", "--system-prompt", "Be terse."]);
    expect(code).toBe(0);
    expect(stdout.split("\n").filter((l) => l.includes("base"))).toEqual([
      `10     preamble         builtin  replaced  base(replaced)     ${BUILTIN}sections/preamble.md`,
      `20     tools            builtin  replaced  base(replaced)     ${BUILTIN}sections/tools.md`,
      `30     rules            builtin  replaced  base(replaced)     ${BUILTIN}sections/rules.md`,
      `40     docs             builtin  replaced  base(replaced)     ${BUILTIN}sections/docs.md`,
      "custom base prompt: option",
    ]);
  });

  it("--model: the variant that serves a section shows as variant:NAME, and in --json with its models", async () => {
    const root = copyScenario("cli", "project-with-layers");
    const { code, stdout } = await cli(root, ["sections", "--model", "gpt-4o-mini"]);
    expect(code).toBe(0);
    expect(stdout.split("\n").filter((l) => / rules /.test(l))).toEqual([
      `30     rules            builtin  rendered  base,overrides:builtin,variant:small  ${BUILTIN}sections/rules@small.md`,
    ]);
    const json = await cli(root, ["sections", "--json", "--model", "gpt-4o-mini"]);
    const rules = (
      JSON.parse(json.stdout) as { sections: Record<string, unknown>[] }
    ).sections.find((s) => s.name === "rules");
    expect([rules?.path, rules?.variant, rules?.overrides, rules?.models]).toEqual([
      `${BUILTIN}sections/rules@small.md`,
      "small",
      "builtin",
      [
        "*-mini",
        "*-mini-*",
        "*-nano",
        "*-nano-*",
        "*-lite",
        "*-lite-*",
        "*:0.5b*",
        "*:1b*",
        "*:1.5b*",
        "*:2b*",
        "*:3b*",
        "*:4b*",
      ],
    ]);
  });

  it("--untrusted: the project section is not listed", async () => {
    const root = copyScenario("cli", "project-with-layers");
    const { code, stdout, stderr } = await cli(root, ["sections", "--untrusted"]);
    expect(code).toBe(0);
    expect(stdout.includes(" team ")).toBe(false);
    expect(stderr).toBe(
      `info [project-untrusted] project is not trusted: ${root}/project/.pi (SYSTEM, APPEND, sections, skills) skipped; context files still load\n`,
    );
  });

  it("--json: each section with its meta and its status in this render, the custom base prompt, the diagnostics", async () => {
    const root = copyScenario("cli", "section-reasons");
    const { code, stdout, stderr } = await cli(root, ["sections", "--json"]);
    expect([code, stderr]).toEqual([0, ""]);
    const project = (name: string) => `${root}/project/.pi/sections/${name}.md`;
    const row = (name: string, order: number, status: string, extra: object = {}) => ({
      name,
      order,
      layer: "builtin",
      path: `${BUILTIN}sections/${name}.md`,
      tag: name,
      base: false,
      cache: "stable",
      volatile: false,
      enabled: true,
      overrides: null,
      variant: null,
      models: null,
      shrink: null,
      status,
      ...extra,
    });
    const parsed = JSON.parse(stdout) as { sections: Record<string, unknown>[] };
    expect({
      ...parsed,
      // Descriptions are the builtin files' own wording, not what this test is about.
      sections: parsed.sections.map(({ description: _, ...rest }) => rest),
    }).toEqual({
      sections: [
        row("preamble", 10, "rendered", { tag: false, base: true }),
        row("tools", 20, "rendered", { base: true }),
        row("rules", 30, "rendered", { base: true }),
        row("docs", 40, "empty", { base: true }),
        row("addendum", 50, "empty", { shrink: { priority: 45, steps: ["appended-files"] } }),
        row("notes", 65, "failed", { layer: "project", path: project("notes") }),
        row("empty", 66, "empty", { layer: "project", path: project("empty") }),
        row("project_context", 70, "empty", {
          shrink: { priority: 40, steps: ["context-files"] },
        }),
        row("project_rules", 75, "empty", {
          shrink: { priority: 35, steps: ["rule-descriptions", "always-rules"] },
        }),
        row("skills", 110, "empty", {
          shrink: { priority: 30, steps: ["skill-descriptions", "skill-list"] },
        }),
        row("cwd", 120, "rendered"),
        row("environment", 140, "disabled", {
          layer: "project",
          path: project("environment"),
          enabled: false,
          overrides: "builtin",
          cache: "session",
        }),
        row("dir_context", 150, "empty", {
          shrink: { priority: 20, steps: ["agents-md"] },
          cache: "session",
        }),
        row("workspace_tree", 160, "empty", {
          shrink: { priority: 10, steps: ["tree-lines", "tree-depth"] },
          cache: "session",
        }),
        row("workspace_roots", 170, "empty", { cache: "session" }),
        row("git", 175, "empty", { cache: "session" }),
        row("date", 180, "rendered", { cache: "session" }),
      ],
      customPrompt: null,
      rules: [],
      diagnostics: [
        {
          level: "error",
          code: "template",
          message: 'Block "each" is never closed: expected {{/each}}; the section is left out',
          path: project("notes"),
          line: 5,
          column: 1,
        },
      ],
    });
    expect(stdout).toBe(`${JSON.stringify(JSON.parse(stdout), null, 2)}\n`);
  });

  it("takes every flag render takes except --section (and --json prints JSON)", async () => {
    const root = copyScenario("cli", "project-with-layers");
    const flags = [
      ["--cwd", "."],
      ["--agent-dir", "../agent"],
      ["--tools", "read"],
      ["--tool", "read=Read."],
      ["--guideline", "Be brief."],
      ["--model", "m"],
      ["--system-prompt", "Base."],
      ["--append-system-prompt", "More."],
      ["--now", "2026-01-15"],
      ["--untrusted"],
      ["--no-context-files"],
      ["--strict"],
      ["--json"],
    ];
    for (const flag of flags) {
      const outcome = await cli(root, ["sections", ...flag]);
      expect([flag, outcome.code]).toEqual([flag, 0]);
    }
  });
});
