import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderCommandLine } from "../../src/integrations/pi/command-line.js";
import { readTextOrPath } from "../../src/locate/text-or-path.js";
import { tempDir } from "../api/_helpers.js";

describe("hostile-pi-command-line-path: pi's base prompt in the printed command is text", () => {
  // pi's SYSTEM.md is the project's text, literal in pi. The printed command gave it back as
  // `--system-prompt '~/.ssh/id_rsa'`, which the CLI reads as a file: a project's one-line
  // SYSTEM.md naming the user's key printed the key wherever the command's output went.
  // Attack review attack21.
  it("carries pi's base prompt as text: a one-line one that reads like a file name gets a line break", async () => {
    const home = tempDir();
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".ssh", "id_rsa"), "SECRET-MARKER-KEY\n");
    for (const text of ["~/.ssh/id_rsa", "README", "Be concise.", "two\nlines"]) {
      const { command } = renderCommandLine({ resolvedSystemPrompt: text }, {});
      const quoted = /--system-prompt '((?:[^']|'\\'')*)'|--system-prompt (\S+)/.exec(command);
      const value = (quoted?.[1] ?? quoted?.[2] ?? "").replaceAll("'\\''", "'");
      const read = await readTextOrPath(value, home, "--system-prompt", home);
      expect(read.path, text).toBeUndefined();
      expect(read.text.trim(), text).toBe(text);
    }
  });
});
