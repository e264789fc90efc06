import { describe, expect, it } from "vitest";
import { formatSettings } from "../../src/cli/commands/explain.js";

describe("formatSettings", () => {
  it("quotes a project's value as a JSON string, its source outside the quotes", () => {
    const line = formatSettings(
      [
        {
          option: "vars",
          key: "vars.deploy",
          value: 'ok (from ~/.pi/agent/sysprompt.yaml:3) "x\u0085',
          source: "config",
          at: "project:/p/.pi/sysprompt.yaml:2",
        },
        {
          option: "vars",
          key: "vars.region",
          value: "eu (mine)",
          source: "config",
          at: "user:/h/.pi/agent/sysprompt.yaml:5",
        },
        { option: "agent", key: "agent", value: "codex", source: "cli", flag: "--agent" },
      ],
      (path) => path,
    );
    expect(line).toBe(
      'settings: vars.deploy "ok (from ~/.pi/agent/sysprompt.yaml:3) \\"x\\u0085" (from /p/.pi/sysprompt.yaml:2), ' +
        "vars.region eu (mine) (from /h/.pi/agent/sysprompt.yaml:5), agent codex (--agent)",
    );
  });
});
