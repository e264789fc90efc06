import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/engine/index.js";

const engine = createEngine();
const render = (source: string, data: unknown = {}) => engine.render(source, data);

describe("join", () => {
  it("joins with a comma and a space by default", () => {
    expect(render("{{join xs}}", { xs: ["a", "b", "c"] })).toBe("a, b, c");
  });

  it("takes a separator, with \\n and \\t unescaped", () => {
    expect(render('{{join xs " | "}}', { xs: ["a", "b"] })).toBe("a | b");
    expect(render('{{join xs "\\n"}}', { xs: ["a", "b"] })).toBe("a\nb");
    expect(render('{{join xs "\\t"}}', { xs: new Set(["a", "b"]) })).toBe("a\tb");
  });

  it("renders null items as empty and non-lists as nothing", () => {
    expect(render("{{join xs}}", { xs: ["a", null, 1] })).toBe("a, , 1");
    expect(render("[{{join xs}}][{{join s}}][{{join o}}]", { s: "abc", o: { a: 1 } })).toBe(
      "[][][]",
    );
  });

  it("inserts values literally", () => {
    expect(render("{{join xs}}", { xs: ["{{x}}"], x: "no" })).toBe("{{x}}");
  });
});

describe("default", () => {
  it("falls back for null, undefined and the empty string only", () => {
    const source = '{{default v "none"}}';
    expect([undefined, null, "", 0, false, "x"].map((v) => render(source, { v }))).toEqual([
      "none",
      "none",
      "none",
      "0",
      "false",
      "x",
    ]);
  });

  it("renders nothing without a fallback and can feed other helpers", () => {
    expect(render("[{{default v}}]", {})).toBe("[]");
    expect(render("{{join (default xs ys)}}", { ys: ["a", "b"] })).toBe("a, b");
  });
});
