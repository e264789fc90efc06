import { describe, expect, it } from "vitest";
import { PROMPT_DATA_FIELDS, PROMPT_DATA_SCHEMA, schemaWithVars } from "../../src/data.js";

/** What the data says of a field it holds XML-escaped. */
const ESCAPED = "; XML-escaped, as an element or attribute prints it: print it as it is.";

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
      "agentsMdLeftOut",
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

  it("describes item shapes of lists and fields of objects, each field with its doc", () => {
    expect(PROMPT_DATA_SCHEMA.fields.skills).toEqual({
      type: "list",
      doc: "The skills the model may load, when a tool can read them (see `skillsTool`).",
      items: {
        type: "object",
        fields: {
          name: { type: "string", doc: `The skill's name${ESCAPED}` },
          description: {
            type: "string",
            doc: `When it applies, as its file writes it (one line or several; a fence it opens is closed inside \`<description>\`)${ESCAPED}`,
          },
          location: { type: "string", doc: `The path of its file, with forward slashes${ESCAPED}` },
          origin: {
            type: "string",
            doc: "`project` for a repository's skill (its `.pi/skills`, `.agents/skills`), `user` for the rest: your skill folders, paths you named, skills the host loaded.",
          },
        },
      },
    });
    expect(PROMPT_DATA_SCHEMA.fields.workspaceTree).toEqual({
      type: "object",
      nullable: true,
      doc: expect.stringMatching(/^The working directory's tree; null /),
      fields: {
        rendered: { type: "string", doc: expect.any(String) },
        truncated: { type: "boolean", doc: expect.any(String) },
      },
    });
  });

  it("schemaWithVars declares the variables as strings and keeps the rest", () => {
    const schema = schemaWithVars(["team", "area"]);
    expect(schema.fields.vars).toEqual({
      type: "object",
      open: true,
      doc: PROMPT_DATA_SCHEMA.fields.vars.doc,
      fields: {
        area: { type: "string", doc: "A variable that sysprompt.yaml or `--var` declares." },
        team: { type: "string", doc: "A variable that sysprompt.yaml or `--var` declares." },
      },
    });
    expect({ ...schema.fields, vars: null }).toEqual({ ...PROMPT_DATA_SCHEMA.fields, vars: null });
  });
});
