import { describe, expect, it } from "vitest";
import { parsePreset } from "../../src/agents/parse.js";
import { MAX_KEY_PROBLEMS } from "../../src/config/index.js";

// A preset could be 64 KiB (16 KiB since), and the one a render uses (named by the project's
// own `agent:`) is parsed on every render. One of 7,745 unknown keys gave a
// warning each, each with a did-you-mean search over the known keys: the
// render printed 7,745 lines and took 2.4-3.2 s at --deadline 100 (0.7 s
// without it). As sysprompt.yaml does, a preset reports MAX_KEY_PROBLEMS
// problems and counts the rest in one more.

describe("hostile repository: a preset's problems are capped", () => {
  it("2,000 unknown keys: MAX_KEY_PROBLEMS warnings and one that counts the rest", () => {
    const text = Array.from({ length: 2_000 }, (_, i) => `k${i.toString(16)}: 1`).join("\n");
    expect(text.length).toBeLessThan(64 * 1024);
    const { fields, diagnostics } = parsePreset(text, "/p/.pi/agents/x.yaml");
    expect(fields).toEqual({});
    expect(diagnostics).toHaveLength(MAX_KEY_PROBLEMS + 1);
    expect(diagnostics[0]).toMatchObject({ code: "preset-invalid", line: 1, level: "warning" });
    expect(diagnostics.at(-1)).toEqual({
      level: "warning",
      code: "preset-problems-capped",
      message: `${2_000 - MAX_KEY_PROBLEMS} more problems in this file not shown`,
      path: "/p/.pi/agents/x.yaml",
    });
  });

  it("a preset with a few problems reports each", () => {
    const { diagnostics } = parsePreset("agentName: A\nbogus: 1\ntools: 3\n", "/p/x.yaml");
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["preset-invalid", 2],
      ["preset-invalid", 3],
    ]);
  });
});
