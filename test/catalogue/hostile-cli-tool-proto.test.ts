import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";

// Review rev53d F4: `--tool '__proto__=TEXT'` set the prototype of the flag's record, so the
// description vanished without a word, and the `tool-unknown` info then told you to give exactly
// that flag. A `NAME=value` flag's name `__proto__` is a usage error now, as `--var`'s is.

describe("hostile-cli-tool-proto: --tool __proto__= is refused, not lost", () => {
  it("exit 2 with the reason, for --tool and --var alike", async () => {
    const cwd = tempDir();
    for (const argv of [
      ["render", "--tool", "__proto__=EVILTOOL", "--tools", "read,__proto__"],
      ["render", "--tool", " __proto__ =EVILTOOL"],
      ["render", "--var", "__proto__=x"],
    ]) {
      let err = "";
      const code = await run(argv, {
        stdout: () => {},
        stderr: (t) => {
          err += t;
        },
        cwd,
        env: {},
        home: cwd,
        machine: { platform: "linux", arch: "x64" },
      });
      expect(code, argv.join(" ")).toBe(2);
      expect(err, argv.join(" ")).toContain('"__proto__" is reserved');
    }
  });
});
