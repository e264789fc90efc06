import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usageHint } from "../cli/_run.js";
import { cliAt, cliProject } from "./_cli-at.js";

// rev66d F4: `--system-prompt -` was the text "-": every base section, yours too, replaced by
// a lone dash, exit 0, not a word, for a user piping a prompt in as `-o -` reads stdout. A
// value of exactly `-` is now a usage error for both text-or-file flags; `./-` names a file.

describe("catalogue: a text-or-file flag given -", () => {
  it.each(["--system-prompt", "--append-system-prompt"])(
    "%s -: exit 2, nothing rendered",
    async (flag) => {
      const { p, home } = cliProject();
      const run = await cliAt(["render", flag, "-"], p, home);
      expect({ code: run.code, out: run.out, err: run.err }).toEqual({
        code: 2,
        out: "",
        err: `sysprompt: ${flag}: - is not standard input here; give the text, or the file's path (./- for a file named -)\n${usageHint("render")}`,
      });
    },
  );

  it("./- names the file -", async () => {
    const { p, home } = cliProject();
    writeFileSync(join(p, "-"), "Base from the file named dash.\n");
    const run = await cliAt(["render", "--system-prompt", "./-"], p, home);
    expect(run.code).toBe(0);
    expect(run.out).toContain("Base from the file named dash.");
  });
});
