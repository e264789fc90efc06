import { describe, expect, it } from "vitest";
import { BUILTIN, copyScenario } from "../api/_helpers.js";
import { cli, pinMachine } from "./_run.js";

pinMachine();

describe("sysprompt sections", () => {
  it("lists every section template with order, name, layer, flags and file", async () => {
    const root = copyScenario("cli", "project-with-layers");
    const b = (name: string) => `${BUILTIN}sections/${name}.md`;
    const rows = [
      ["ORDER", "NAME", "LAYER", "FLAGS", "FILE"],
      ["10", "preamble", "builtin", "base", b("preamble")],
      ["20", "tools", "builtin", "base", b("tools")],
      ["30", "rules", "builtin", "base", b("rules")],
      ["40", "docs", "builtin", "base", b("docs")],
      ["50", "addendum", "builtin", "-", b("addendum")],
      ["60", "environment", "builtin", "-", b("environment")],
      ["65", "team", "project", "-", `${root}/project/.pi/sections/team.md`],
      ["70", "project_context", "builtin", "-", b("project_context")],
      ["80", "dir_context", "builtin", "-", b("dir_context")],
      ["90", "workspace_tree", "builtin", "-", b("workspace_tree")],
      ["100", "workspace_roots", "builtin", "-", b("workspace_roots")],
      ["110", "skills", "builtin", "-", b("skills")],
      ["120", "cwd", "user", "overrides:builtin", `${root}/agent/sections/cwd.md`],
      ["130", "date", "builtin", "volatile", b("date")],
    ];
    const table = rows
      .map(
        ([order, name, layer, flags, file]) =>
          `${order?.padEnd(5)}  ${name?.padEnd(15)}  ${layer?.padEnd(7)}  ${flags?.padEnd(17)}  ${file}\n`,
      )
      .join("");
    expect(await cli(root, ["sections"])).toEqual({ code: 0, stdout: table, stderr: "" });
  });

  it("a custom base prompt marks the base sections replaced and names its source", async () => {
    const root = copyScenario("cli", "project-with-layers");
    const { code, stdout } = await cli(root, ["sections", "--system-prompt", "Be terse."]);
    expect(code).toBe(0);
    expect(stdout.split("\n").filter((l) => l.includes("base"))).toEqual([
      `10     preamble         builtin  base(replaced)     ${BUILTIN}sections/preamble.md`,
      `20     tools            builtin  base(replaced)     ${BUILTIN}sections/tools.md`,
      `30     rules            builtin  base(replaced)     ${BUILTIN}sections/rules.md`,
      `40     docs             builtin  base(replaced)     ${BUILTIN}sections/docs.md`,
      "custom base prompt: option",
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
});
