import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliAt, cliProject } from "./_cli-at.js";

// Review rev60d F3: `render -o $'y\nerror /etc/passwd:1:1 [fake] forged line.md'` printed
// `sysprompt: wrote y` and then a line of its own, `error /etc/passwd:1:1 …` (ESC was escaped, a
// line feed not): a script building `-o out/$NAME.md` from a repository's name printed the
// repository's line. The path is one field of the line now, escaped as diagnostics' are.

describe("hostile-output-wrote-line: the wrote/unchanged line of render -o is one line", () => {
  it("a line feed in the -o path is escaped, the file still written", async () => {
    const { p, home } = cliProject();
    const name = "y\nerror /etc/passwd:1:1 [fake] forged line.md";
    for (const said of ["wrote", "unchanged:"]) {
      const { code, err } = await cliAt(["render", "-o", name], p, home);
      expect(code).toBe(0);
      expect(err).toContain(
        `sysprompt: ${said} y\\u000aerror /etc/passwd:1:1 [fake] forged line.md\n`,
      );
      expect(err.split("\n").filter((l) => l.startsWith("error "))).toEqual([]);
    }
    expect(existsSync(join(p, name))).toBe(true);
  });
});
