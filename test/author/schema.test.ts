import { describe, expect, it } from "vitest";
import { PROMPT_DATA_FIELDS, PROMPT_DATA_SCHEMA } from "../../src/data.js";

describe("PROMPT_DATA_SCHEMA", () => {
  it("PROMPT_DATA_FIELDS is derived from it, in schema order", () => {
    expect(PROMPT_DATA_FIELDS).toEqual([
      "agentName",
      "cwd",
      "date",
      "model",
      "tools",
      "toolSnippets",
      "rules",
      "guidelines",
      "environment",
      "contextFiles",
      "alwaysRules",
      "onDemandRules",
      "agentsMd",
      "rootAgentsMd",
      "agentsMdTruncated",
      "agentsMdOnTouch",
      "agentLoads",
      "workspaceTree",
      "rootTrees",
      "roots",
      "skills",
      "skillsTool",
      "appendPrompt",
      "customPrompt",
      "docs",
      "git",
      "vars",
    ]);
  });

  it("describes item shapes of lists and fields of objects", () => {
    expect(PROMPT_DATA_SCHEMA.fields.skills).toEqual({
      type: "list",
      items: {
        type: "object",
        fields: {
          name: { type: "string" },
          description: { type: "string" },
          location: { type: "string" },
        },
      },
    });
    expect(PROMPT_DATA_SCHEMA.fields.workspaceTree).toEqual({
      type: "object",
      nullable: true,
      fields: { rendered: { type: "string" }, truncated: { type: "boolean" } },
    });
  });
});
