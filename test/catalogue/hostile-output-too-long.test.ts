import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliAt, cliProject } from "./_cli-at.js";

// rev64d F2: `render -o d/d/…/x` (3,000 levels, 6,001 bytes) made 2,038 folders, then failed
// (exit 1, ENAMETOOLONG) and left them; run again it was refused (exit 2) as links "too deep to
// check" with a Usage line, where there were no links. A path the system can never name is now
// refused before any folder is made (one line, exit 2), a failed write removes the folders it
// made, and a walk given up on is said as one line of its way, not of links.

describe("hostile-output-too-long: a path too long to name is one refusal, nothing left", () => {
  it("6,001 bytes of folders: exit 2, one line, no folder made; the same again", async () => {
    const { p, home } = cliProject();
    const path = `${"d/".repeat(3000)}x`;
    for (let run = 0; run < 2; run++) {
      const { code, out, err } = await cliAt(["render", "-o", path], p, home);
      expect({ code, out }).toEqual({ code: 2, out: "" });
      expect(err).toMatch(
        /^sysprompt: --output: the path is too long: \d+ bytes, where the system takes at most 4095; name a shorter path\n$/,
      );
      expect(existsSync(join(p, "d"))).toBe(false);
    }
  });

  it("a 300-byte name: exit 2, one line, no Usage", async () => {
    const { p, home } = cliProject();
    const { code, err } = await cliAt(["render", "-o", "0".repeat(300)], p, home);
    expect(code).toBe(2);
    expect(err).toBe(
      "sysprompt: --output: a name in the path is too long: 300 bytes, where the system takes at most 255; name a shorter path\n",
    );
  });

  it("a write that fails after making its folders removes them", async () => {
    const { p, home } = cliProject();
    // A path the system takes (4,090 bytes) whose temporary file's path, some 20 bytes longer,
    // it does not (the known limit: only a name too long is made to fit, rev66d F1).
    let folder = join(p, "new", "sub");
    while (folder.length + 101 < 3990) folder = join(folder, "d".repeat(100));
    const path = join(folder, `${"n".repeat(4086 - folder.length)}.md`);
    expect(Buffer.byteLength(path)).toBe(4090);
    const { code, err } = await cliAt(["render", "-o", path], p, home);
    expect(code).toBe(1);
    expect(err).toContain("cannot write it");
    expect(existsSync(join(p, "new"))).toBe(false);
  });
});
