import { describe, expect, it } from "vitest";
import { toRenderOptions } from "../../src/cli/options.js";

describe("--root", () => {
  it("a relative root resolves from the shell's folder, as every other path argument does, not from --cwd", () => {
    expect(
      toRenderOptions({ cwd: "main", root: ["other", "/abs", "~/x"] }, "/w", {}, "/home/u").roots,
    ).toEqual(["/w/other", "/abs", "/home/u/x"]);
  });
});
