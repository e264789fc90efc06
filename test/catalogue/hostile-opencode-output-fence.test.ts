import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SyspromptPlugin } from "../../src/integrations/opencode/plugin.js";
import { tempDir } from "../api/_helpers.js";
import { swallowed } from "./_commonmark.js";

// opencode's plugin appends the files given on touch to the tool's own output,
// after a blank line. That output is the repository's text too (`cat
// README.md` through bash): one that ends inside a fence or comment took the
// lead line, the `<instructions>` elements and the glob rule the user wrote
// into it. It is now closed first, as every repository text is.

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.XDG_CACHE_HOME;
});
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
});

describe("hostile repository: a tool output that leaves a fence open does not take the files given after it", () => {
  for (const [name, printed] of [
    ["a fence", "# Readme\n\n```sh\nmake"],
    ["a comment", "# Readme\n\n<!-- draft"],
  ] as const) {
    it(`a tool output ending in ${name}`, async () => {
      const root = tempDir();
      const cwd = join(root, "p");
      const files: Record<string, string> = {
        ".git/HEAD": "ref: refs/heads/main\n",
        "pkg/x.ts": "",
        ".cursor/rules/ts.mdc": '---\nglobs: ["**/*.ts"]\n---\nRULE-MARKER: strict TS.\n',
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(cwd, path, ".."), { recursive: true });
        writeFileSync(join(cwd, path), text);
      }
      process.env.XDG_CACHE_HOME = join(root, "cache");
      const hooks = await SyspromptPlugin({ directory: cwd });
      const output = { title: "", output: printed, metadata: {} };
      await hooks["tool.execute.after"](
        { tool: "read", sessionID: "s", callID: "c", args: { filePath: join(cwd, "pkg/x.ts") } },
        output,
      );
      expect(output.output).toContain("RULE-MARKER");
      expect(output.output.startsWith(printed)).toBe(true);
      expect(swallowed(output.output, "RULE-MARKER")).toBe(false);
      expect(swallowed(output.output, "An instruction file applies")).toBe(false);
    });
  }
});
