import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { parseVars } from "../../src/cli/options.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { cli, pinMachine, usageHint } from "../cli/_run.js";

pinMachine();

function project(files: Record<string, string>) {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, "agent"), { recursive: true });
  return root;
}

const TEAM_SECTION =
  "---\norder: 75\ntag: false\n---\nTeam: {{vars.team}}.\n{{#if vars.ticket}}Tickets: {{vars.ticket}}-123.{{/if}}\n";

describe("variables", () => {
  it("templates read {{vars.NAME}}; the option gives them to a library render", async () => {
    const root = project({ "project/.pi/sections/team.md": TEAM_SECTION });
    const result = await renderSystemPrompt(
      pinned(root, { vars: { team: "payments", ticket: "PAY" } }),
    );
    expect(result.sections.find((s) => s.name === "team")?.text).toBe(
      "Team: payments.\nTickets: PAY-123.",
    );
    // A value is text, never a template: what it holds renders literally.
    const literal = await renderSystemPrompt(pinned(root, { vars: { team: "{{cwd}}" } }));
    expect(literal.sections.find((s) => s.name === "team")?.text).toBe("Team: {{cwd}}.");
  });

  it("a bad explicit vars option throws, naming the name", async () => {
    const root = project({});
    await expect(renderSystemPrompt(pinned(root, { vars: { "a-b": "x" } }))).rejects.toThrow(
      new SyspromptError(
        "bad-option",
        'vars: must be an object whose keys are variable names ("a-b" is not a variable name: use letters, digits and _, not starting with a digit (it is written {{vars.NAME}})), got an object',
      ),
    );
    await expect(
      renderSystemPrompt(pinned(root, { vars: { a: 1 } as unknown as Record<string, string> })),
    ).rejects.toThrow("vars: must be an object whose values are strings, got an object");
  });

  it("--var NAME=value, repeatable: the last one for a name wins, the value may hold = or be empty", () => {
    expect(parseVars(["team=pay", "q=a=b", "empty=", "team=core"])).toEqual({
      team: "core",
      q: "a=b",
      empty: "",
    });
  });

  it("a --var without = or with a bad name exits 2 with a clear message", async () => {
    const root = project({});
    for (const [flag, message] of [
      ["team", 'sysprompt: --var expects NAME=value, such as --var team=payments, got "team"\n'],
      [
        "=x",
        'sysprompt: --var: "" is not a variable name: use letters, digits and _, not starting with a digit (it is written {{vars.NAME}})\n',
      ],
      [
        "1a=x",
        'sysprompt: --var: "1a" is not a variable name: use letters, digits and _, not starting with a digit (it is written {{vars.NAME}})\n',
      ],
      [
        "__proto__=x",
        'sysprompt: --var: "__proto__" is reserved (an object\'s prototype), pick another name\n',
      ],
    ]) {
      const run = await cli(root, ["render", "--var", flag as string]);
      expect([run.code, run.stdout, run.stderr]).toEqual([
        2,
        "",
        `${message}${usageHint("render")}`,
      ]);
    }
  });

  it("check knows the declared names and warns, in the template, on an undeclared one", async () => {
    const root = project({
      "project/.pi/sections/team.md": TEAM_SECTION,
      "agent/sysprompt.yaml": "vars:\n  team: payments\n",
    });
    const options = {
      cwd: join(root, "project"),
      agentDir: join(root, "agent"),
      home: join(root, "home"),
      env: {},
    };
    const report = await checkProject(options);
    const path = join(root, "project/.pi/sections/team.md");
    expect(report.diagnostics.filter((d) => d.path === path)).toEqual([
      {
        level: "warning",
        code: "var-undeclared",
        message:
          '"vars.ticket" is not declared (declared: team): it renders empty unless it is given; declare ticket under vars: in sysprompt.yaml, or pass --var ticket=VALUE',
        path,
        line: 6,
        column: 7,
      },
      {
        level: "warning",
        code: "var-undeclared",
        message:
          '"vars.ticket" is not declared (declared: team): it renders empty unless it is given; declare ticket under vars: in sysprompt.yaml, or pass --var ticket=VALUE',
        path,
        line: 6,
        column: 31,
      },
    ]);
    // Declared in the project's file too: no warning left.
    writeFileSync(join(root, "project/.pi/sysprompt.yaml"), 'vars:\n  ticket: "PAY"\n');
    expect((await checkProject(options)).diagnostics.filter((d) => d.path === path)).toEqual([]);
    // Another field of the data that does not exist is still an error.
    writeFileSync(join(root, "project/.pi/sections/team.md"), "{{varz.team}}\n");
    expect(
      (await checkProject(options)).diagnostics
        .filter((d) => d.path === path)
        .map((d) => [d.level, d.code]),
    ).toEqual([["error", "unknown-field"]]);
  });

  it("check reports the config files' own problems, and reads an untrusted project's not at all", async () => {
    const root = project({
      "agent/sysprompt.yaml": "modle: x\n",
      "project/.pi/sysprompt.yaml": "tree: maybe\n",
    });
    const options = {
      cwd: join(root, "project"),
      agentDir: join(root, "agent"),
      home: join(root, "home"),
      env: {},
    };
    const codes = (r: Awaited<ReturnType<typeof checkProject>>) =>
      r.diagnostics
        .filter((d) => d.path?.endsWith("sysprompt.yaml"))
        .map((d) => [d.level, d.code, d.path, d.line]);
    expect(codes(await checkProject(options))).toEqual([
      ["warning", "config-unknown-key", join(root, "agent/sysprompt.yaml"), 1],
      ["error", "config-bad-value", join(root, "project/.pi/sysprompt.yaml"), 1],
    ]);
    expect(codes(await checkProject({ ...options, projectTrusted: false }))).toEqual([
      ["warning", "config-unknown-key", join(root, "agent/sysprompt.yaml"), 1],
      ["info", "config-untrusted", join(root, "project/.pi/sysprompt.yaml"), undefined],
    ]);
  });
});
