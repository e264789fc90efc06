import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { toRenderOptions } from "../../src/cli/options.js";

describe("--root", () => {
  it("a relative root resolves from the shell's folder, as every other path argument does, not from --cwd", () => {
    expect(
      toRenderOptions({ cwd: "main", root: ["other", "/abs", "~/x"] }, "/w", {}, "/home/u").roots,
    ).toEqual(["/w/other", "/abs", "/home/u/x"]);
  });

  it("its help says so, for every command that takes it", async () => {
    for (const command of ["render", "sections", "explain", "watch", "export", "serve"]) {
      let out = "";
      await run([command, "--help"], {
        stdout: (text) => {
          out += text;
        },
        stderr: () => {},
        cwd: "/",
        env: {},
      });
      // Commander wraps long descriptions; read the --root entry as one line.
      const entry = out.slice(
        out.indexOf("--root <dir>"),
        out.indexOf("\n  --", out.indexOf("--root <dir>")),
      );
      expect([command, entry.replace(/\s+/g, " ")]).toEqual([
        command,
        "--root <dir> extra workspace root: its context files load too (repeatable; relative to the shell's folder, like --cwd)",
      ]);
    }
  });
});
