import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliAt, cliProject } from "./_cli-at.js";

// Review rev60d F2: a path argument that is not UTF-8 reaches Node with U+FFFD for its bytes
// (argv is decoded lossily), a string that names ANOTHER path. `render -o <dir\xe9>/prompt.md`
// made a new folder `dir\uFFFD` beside yours and wrote there, exit 0, "wrote …" (your file kept
// its stale prompt); `export --out` the same; `--agent-dir` then took the made folder; `snapshot`
// listed it. Every path flag and argument holding U+FFFD is refused now (exit 2), as the working
// folder is; a real U+FFFD name too (the string cannot tell the two apart).

const SAYS = "the path is not UTF-8";

function project() {
  const { base, p, home } = cliProject();
  // Your folder, its name in Latin-1 (`out\xe9`), as argv hands it over: `out\uFFFD`.
  mkdirSync(Buffer.concat([Buffer.from(join(base, "out")), Buffer.from([0xe9])]));
  return { base, p, home, lossy: join(base, "out\uFFFD") };
}

describe("hostile-cli-path-not-utf8: a path argument holding U+FFFD is refused, nothing written", () => {
  it("every path flag and argument, whatever the command: exit 2, the encoding said", async () => {
    const { base, p, home, lossy } = project();
    for (const argv of [
      ["render", "-o", join(lossy, "prompt.md")],
      ["render", "--output", join(lossy, "prompt.md")],
      ["export", "--agent", "codex", "--out", join(lossy, "codex.md")],
      ["render", "--agent-dir", lossy],
      ["render", "--cwd", lossy],
      ["render", "--root", p, "--root", lossy],
      ["render", "--allow-git-dir", lossy],
      ["snapshot", lossy],
      ["list", "--agent-dir", lossy],
    ]) {
      const { code, out, err } = await cliAt(argv, p, home);
      expect(code, argv.join(" ")).toBe(2);
      expect(err, argv.join(" ")).toContain(SAYS);
      expect(err, argv.join(" ")).not.toMatch(/wrote|no \*\.scenario/);
      expect(out, argv.join(" ")).toBe("");
    }
    // No folder of the U+FFFD spelling was made; yours is as it was.
    expect(existsSync(lossy)).toBe(false);
    expect(readdirSync(base).filter((n) => n.startsWith("out"))).toHaveLength(1);
  });

  it("a UTF-8 name is written as before", async () => {
    const { base, p, home } = project();
    mkdirSync(join(base, "out\u00e9"));
    const { code } = await cliAt(["render", "-o", join(base, "out\u00e9", "prompt.md")], p, home);
    expect(code).toBe(0);
    expect(existsSync(join(base, "out\u00e9", "prompt.md"))).toBe(true);
  });
});
