import { describe, expect, it } from "vitest";
import { builtinHelpers } from "../../helpers/index.js";
import { PROMPT_DATA_FIELDS, type SchemaOf } from "../../src/data.js";
import { templateDataReference } from "../../src/data-reference.js";
import { docPart } from "./_docs.js";
import { expectGenerated } from "./_generated.js";

describe("docs/template-data.md", () => {
  it("holds the reference generated from PROMPT_DATA_SCHEMA between its markers", () => {
    expectGenerated("docs/template-data.md", "template-data-reference", templateDataReference(), {
      update: "UPDATE_TEMPLATE_DATA_REFERENCE",
      test: "test/docs/template-data.test.ts",
    });
  });

  it("has a row per field path, items of lists as `list[].field`, each with its doc", () => {
    const rows = templateDataReference()
      .split("\n")
      .filter((l) => l.startsWith("| `"));
    const paths = rows.map((r) => /^\| `([^`]+)`/.exec(r)?.[1]);
    expect(paths.filter((p) => !p?.includes("."))).toEqual(PROMPT_DATA_FIELDS);
    expect(rows.filter((r) => r.startsWith("| `contextFiles"))).toEqual([
      expect.stringMatching(/^\| `contextFiles` \| list of objects \| {2}\| The context files /),
      expect.stringMatching(/^\| `contextFiles\[\]\.path` \| string \| {2}\| Its path /),
      expect.stringMatching(/^\| `contextFiles\[\]\.content` \| string \| {2}\| Its text /),
      expect.stringMatching(/^\| `contextFiles\[\]\.origin` \| string \| {2}\| `user` /),
    ]);
    expect(rows.find((r) => r.startsWith("| `git.upstream.ahead`"))).toBe(
      "| `git.upstream.ahead` | number |  | Commits on the branch that the upstream lacks (0 when `gone`). |",
    );
    expect(rows.find((r) => r.startsWith("| `model`"))).toMatch(
      /^\| `model` \| string \| null \| /,
    );
    expect(rows.find((r) => r.startsWith("| `tools`"))).toMatch(
      /^\| `tools` \| list of string \| /,
    );
    expect(rows.every((r) => !/\| {1,2}\|$/.test(r))).toBe(true);
  });

  it("a field without its doc does not type-check (so none goes undocumented)", () => {
    const undocumented: SchemaOf<{ a: string }> = {
      type: "object",
      // @ts-expect-error: `doc` is required on every field
      fields: { a: { type: "string" } },
    };
    const documented: SchemaOf<{ a: string }> = {
      type: "object",
      fields: { a: { type: "string", doc: "A." } },
    };
    expect([undocumented.type, documented.fields.a.doc]).toEqual(["object", "A."]);
  });

  it("names every builtin helper, and only those", () => {
    const page = docPart("docs/template-data.md", "## Using the data");
    const line = /The helpers are (.+?);/s.exec(page)?.[1] ?? "";
    const named = [...line.matchAll(/`(\w+)`/g)].map((m) => m[1]);
    expect(named.sort()).toEqual(Object.keys(builtinHelpers).sort());
  });
});
