import { describe, expect, it } from "vitest";
import { YAML_LIMITS, yamlLimitProblem } from "../../src/_yaml.js";
import { parseConfig } from "../../src/config/index.js";

const PATH = "/home/u/.pi/agent/sysprompt.yaml";
const parse = (source: string) => parseConfig(source, PATH, "user");

describe("parseConfig", () => {
  it("reads every key into its option, with the line of each", () => {
    const file = parse(
      [
        "# defaults for every render",
        "agent: claude-code",
        "tools: [read, bash]",
        "model: gpt-5",
        "tree: true",
        "deadline: 2000",
        "max-tokens: 8000",
        "rule-sources: [cursor, claude, cursor]",
        "vars:",
        "  team: payments",
        "  ticket_prefix: PAY-",
      ].join("\n"),
    );
    expect(file).toEqual({
      layer: "user",
      path: PATH,
      found: true,
      values: {
        agent: "claude-code",
        tools: ["read", "bash"],
        model: "gpt-5",
        workspaceTree: true,
        deadlineMs: 2000,
        maxPromptTokens: 8000,
        ruleSources: ["cursor", "claude"],
        vars: { team: "payments", ticket_prefix: "PAY-" },
      },
      lines: new Map([
        ["agent", 2],
        ["tools", 3],
        ["model", 4],
        ["tree", 5],
        ["deadline", 6],
        ["max-tokens", 7],
        ["rule-sources", 8],
        ["vars.team", 10],
        ["vars.ticket_prefix", 11],
        ["vars", 9],
      ]),
      diagnostics: [],
    });
  });

  it("takes tools as one comma-separated string too, as the flag does", () => {
    expect(parse("tools: read, bash ,edit").values).toEqual({ tools: ["read", "bash", "edit"] });
    expect(parse('tools: ""').values).toEqual({ tools: [] });
  });

  it("an empty file or one of comments sets nothing and says nothing", () => {
    for (const source of ["", "# nothing yet\n", "---\n"]) {
      expect([parse(source).values, parse(source).diagnostics]).toEqual([{}, []]);
    }
  });

  it("an unknown key is a located warning with a suggestion; the other keys still apply", () => {
    const file = parse(
      "model: gpt-5\nmax-token: 100\nmaxPromptTokens: 5\nworkspaceTree: true\nzzz: 1\n",
    );
    expect(file.values).toEqual({ model: "gpt-5" });
    expect(file.diagnostics).toEqual([
      {
        level: "warning",
        code: "config-unknown-key",
        message: 'unknown key "max-token", ignored; did you mean "max-tokens"?',
        path: PATH,
        line: 2,
      },
      {
        level: "warning",
        code: "config-unknown-key",
        message:
          'unknown key "maxPromptTokens", ignored; it is written "max-tokens" here, as the command-line flag',
        path: PATH,
        line: 3,
      },
      {
        level: "warning",
        code: "config-unknown-key",
        message:
          'unknown key "workspaceTree", ignored; it is written "tree" here, as the command-line flag',
        path: PATH,
        line: 4,
      },
      {
        level: "warning",
        code: "config-unknown-key",
        message:
          'unknown key "zzz", ignored; the keys are: agent, agent-mode, vars, model, tools, tree, tree-depth, git, rule-sources, deadline, max-tokens',
        path: PATH,
        line: 5,
      },
    ]);
  });

  it("a bad value is a located error and that key is ignored; the others apply", () => {
    const file = parse(
      [
        "tools: read",
        "tree: yes please",
        "deadline: -1",
        "max-tokens: 0",
        "rule-sources: [cursr]",
        "model:",
        'agent: "a\\nb"',
        "deadline: 5",
      ].join("\n"),
    );
    // A key given twice is a YAML error: which one was meant is a guess.
    expect(file.values).toEqual({});
    expect(file.diagnostics.map((d) => [d.code, d.line])).toEqual([["config-yaml", 8]]);

    const bad = parse(
      [
        "tools: read",
        "tree: yes please",
        "deadline: -1",
        "max-tokens: 0",
        "rule-sources: [cursr]",
        "model:",
        'agent: "a\\nb"',
      ].join("\n"),
    );
    expect(bad.values).toEqual({ tools: ["read"] });
    expect(bad.diagnostics).toEqual(
      [
        [
          2,
          'tree must be true or false, got "yes please" (as in `tree: true`); the key is ignored',
        ],
        [
          3,
          "deadline must be a whole number of milliseconds, 0 or more, such as 5000, got -1 (as in `deadline: 5000`); the key is ignored",
        ],
        [
          4,
          "max-tokens must be a whole number of tokens, 1 or more, such as 8000, got 0 (as in `max-tokens: 8000`); the key is ignored",
        ],
        [
          5,
          'rule-sources has the unknown rule source "cursr"; did you mean "cursor"? (as in `rule-sources: [cursor, claude]`); the key is ignored',
        ],
        [
          6,
          "model has no value; give one or leave the key out (as in `model: gpt-5`); the key is ignored",
        ],
        [
          7,
          'agent must be one line, without control characters, got "a\\nb" (as in `agent: claude-code`); the key is ignored',
        ],
      ].map(([line, message]) => ({
        level: "error",
        code: "config-bad-value",
        message,
        path: PATH,
        line,
      })),
    );
  });

  it("past 20 problems in one file, one more warning counts the rest", () => {
    const file = parse(Array.from({ length: 30 }, (_, i) => `key${i}: 1`).join("\n"));
    expect(file.diagnostics).toHaveLength(21);
    expect(file.diagnostics[19]?.line).toBe(20);
    expect(file.diagnostics[20]).toEqual({
      level: "warning",
      code: "config-problems-capped",
      message: "10 more problems in this file not shown",
      path: PATH,
    });
  });

  it("a bad variable is a located error and only that variable is ignored", () => {
    const file = parse(
      ["vars:", "  team: payments", "  port: 8080", "  2fa: on", "  list: [a]", '  ok: ""'].join(
        "\n",
      ),
    );
    expect(file.values).toEqual({ vars: { team: "payments", ok: "" } });
    expect(file.diagnostics.map((d) => [d.level, d.code, d.line, d.message])).toEqual([
      [
        "error",
        "config-bad-value",
        3,
        'vars.port must be a string (quote a number or true/false: port: "…"), got 8080; it is ignored',
      ],
      [
        "error",
        "config-bad-value",
        4,
        'vars: "2fa" is not a variable name: use letters, digits and _, not starting with a digit (it is written {{vars.NAME}}); it is ignored',
      ],
      [
        "error",
        "config-bad-value",
        5,
        'vars.list must be a string (quote a number or true/false: list: "…"), got a list; it is ignored',
      ],
    ]);
    expect(parse("vars: [a, b]").diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["config-bad-value", 1],
    ]);
  });

  it("bad YAML is a located error and the whole file is ignored", () => {
    const file = parse("model: gpt-5\ntools: [read\n");
    expect(file.values).toEqual({});
    expect(file.diagnostics.map((d) => [d.level, d.code])).toEqual([["error", "config-yaml"]]);
    expect(file.diagnostics[0]?.line).toBeTypeOf("number");
    expect(parse("- a\n- b\n").diagnostics).toEqual([
      {
        level: "error",
        code: "config-yaml",
        message:
          "must be a mapping of keys to values, such as `tools: [read, bash]`; the file is ignored",
        path: PATH,
        line: 1,
      },
    ]);
  });

  it("aliases past the cap (a billion laughs) are a bad value, not a hang", () => {
    const laughs = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "tools: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
    ].join("\n");
    const file = parse(laughs);
    expect(file.values).toEqual({});
    expect(file.diagnostics.filter((d) => d.code !== "config-unknown-key")).toEqual([
      {
        level: "error",
        code: "config-bad-value",
        message:
          "tools uses more than 100 aliases or an unknown one (as in `tools: [read, bash, edit, write]`); the key is ignored",
        path: PATH,
        line: 4,
      },
    ]);
  });

  it("nesting the YAML parser is slow on is refused before it parses, at its line", () => {
    // 8,000 of these ran the parser for more than 30 s; deep brackets ran it out of memory.
    // 4,000 here: the text stays under a config's 8 KiB, so the nesting is what is refused.
    const cases = [
      `model: x\nvars: ${"[".repeat(4_000)}`,
      `model: x\nvars:\n  ${"? ".repeat(4_000)}x`,
      `model: x\ntools:\n  ${"- ".repeat(4_000)}x`,
    ];
    for (const source of cases) {
      const started = performance.now();
      const file = parse(source);
      expect(performance.now() - started).toBeLessThan(500);
      expect(file.values).toEqual({});
      expect(file.diagnostics.map((d) => [d.level, d.code, d.line])).toEqual([
        ["error", "config-yaml", source.includes("[") ? 2 : 3],
      ]);
    }
    // What a config holds is far from the limits.
    expect(
      yamlLimitProblem('vars:\n  note: "use [x] or {y}"\ntools: [read, [bash]]\n- - a\n'),
    ).toBe(undefined);
    // The line's own level and one less than the limit of brackets.
    expect(yamlLimitProblem("[".repeat(YAML_LIMITS.maxDepth - 1))).toBe(undefined);
  });
});
