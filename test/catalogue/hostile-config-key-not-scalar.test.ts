import { describe, expect, it } from "vitest";
import { parsePreset } from "../../src/agents/parse.js";
import { parseConfig } from "../../src/config/parse.js";

// Review rev107b F2 (low): a `vars:` key that is a list or a mapping
// (`? {k: 1}` / `: b`) was called "nothing" in the config diagnostic:
// `vars: nothing is not a variable name`, as if the key were empty. A key
// is now named as YAML wrote it, by its kind ("a mapping", "a list", an
// alias by its anchor), its value when it is a scalar, and "nothing" only
// for a null key; the same for a top-level key and a preset's.

const messages = (source: string) =>
  parseConfig(source, "/p/.pi/sysprompt.yaml", "project").diagnostics.map((d) => [
    d.line,
    d.message,
  ]);

const NOT_A_NAME = "is not a variable name (a plain word); it is ignored";

describe("hostile repository: a config key that is a list or a mapping", () => {
  it("a vars key is named by its kind, a null key stays nothing", () => {
    expect(
      messages(
        "vars:\n  ? {k: 1}\n  : b\n  ? [x, y]\n  : c\n  &a1 ok: d\n  ? *a1\n  : e\n  ~: f\n  good: g\n",
      ),
    ).toEqual([
      [2, `vars: a mapping ${NOT_A_NAME}`],
      [4, `vars: a list ${NOT_A_NAME}`],
      [7, `vars: an alias (*a1) ${NOT_A_NAME}`],
      [9, `vars: nothing ${NOT_A_NAME}`],
    ]);
    const file = parseConfig("vars:\n  ? {k: 1}\n  : b\n  good: g\n", "/p/x.yaml", "project");
    expect(file.values.vars).toEqual({ good: "g" });
  });

  it("a top-level key and a preset's key are named by their kind too", () => {
    expect(messages("? [tools]\n: [read]\n")).toEqual([
      [1, expect.stringMatching(/^a key must be a plain word, got a list; the keys are: /)],
    ]);
    const preset = parsePreset("? {agentName: x}\n: y\n", "/p/.pi/agents/x.yaml");
    expect(preset.diagnostics.map((d) => d.message)).toEqual([
      expect.stringMatching(/^a key must be a plain word, got a mapping; the keys are /),
    ]);
  });
});
