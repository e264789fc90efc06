import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEngine, TemplateError } from "../../src/engine/engine.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Review rev44d F3 and F4 (low). F3: the helper every partial call with
// key=value pairs passes its context through is registered under a name
// with a space, but a bracketed segment names anything: a project's
// `{{[partial context] cwd}}` rendered `[object Object]`, where `check` said
// the helper is unknown. F4: `{{#*inline (lookup . "n")}}` failed at run time
// inside Handlebars' code ("helpers is not defined"), a diagnostic with no
// line. Both are now refused when the template is compiled, at their place.

const failure = (source: string) => {
  try {
    return {
      text: createEngine().render(source, { s: "abc", n: "q" }, { partials: { p: "{{a}}" } }),
    };
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return { message: error.message, line: error.line, column: error.column };
  }
};

const HIDDEN = { message: 'Unknown helper "partial context"' };

describe("hostile repository: the engine's hidden helper and decorator arguments", () => {
  it.each([
    ["a call", "a\n {{[partial context] s}}", 2, 2],
    ["a call without arguments", "{{#if 1}}{{[partial context]}}{{/if}}", 1, 10],
    ["a block", "{{#[partial context] s}}{{/[partial context]}}", 1, 1],
    ["a subexpression", "{{#if ([partial context] s)}}{{/if}}", 1, 7],
  ])(
    "the hidden helper named in %s is an unknown helper, at its place",
    (_what, source, line, column) => {
      expect(failure(source)).toEqual({ ...HIDDEN, line, column });
    },
  );

  it("check says the same as render", () => {
    expect(createEngine().check("{{[partial context] s}}")?.message).toBe(HIDDEN.message);
  });

  it("partial calls with key=value pairs still work, and a lookup of such a key is data", () => {
    expect(failure('{{> p a=1}}{{#> p a=2}}{{/p}}{{> p (lookup . "s") a=3}}')).toEqual({
      text: "123",
    });
    expect(failure("[{{lookup . [partial context]}}]")).toEqual({ text: "[]" });
  });

  it("a subexpression among a decorator's arguments is refused at its place", () => {
    expect(failure('x\n  {{#*inline (lookup . "n")}}X{{/inline}}')).toMatchObject({
      message: expect.stringContaining("A decorator's arguments cannot hold a subexpression"),
      line: 2,
      column: 14,
    });
    expect(failure('{{#*inline "q"}}Q{{/inline}}{{> q}}')).toEqual({ text: "Q" });
  });

  it("a project's section with such a decorator gets a diagnostic with its line", async () => {
    const root = tempDir();
    const sections = join(root, "project", ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    writeFileSync(
      join(sections, "d1.md"),
      '---\norder: 5\n---\nA\n{{#*inline (lookup . "n")}}X{{/inline}}\n',
    );
    const result = await renderSystemPrompt(pinned(root));
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "template",
        path: join(sections, "d1.md"),
        line: 5,
        column: 12,
      }),
    );
  });
});
