import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev77d F4: under umask 000, `export --out` made its missing folders 0777 and the file
// 0666 and printed the line to paste (the next export refused that very folder); an existing
// 0666 `--out` file in a folder of yours was written and kept 0666. Any user could write that
// file, the prompt codex reads at each start, without a rename. No folder or file sysprompt
// writes is now group or other writable, and an `--out` file that was is said.

const UNIX = process.getuid !== undefined;
const mode = (path: string) => statSync(path).mode & 0o7777;

function project() {
  const root = tempDir();
  chmodSync(root, 0o755);
  mkdirSync(join(root, "p/.git"), { recursive: true });
  writeFileSync(join(root, "p/AGENTS.md"), "# P\n");
  mkdirSync(join(root, "home"));
  mkdirSync(join(root, "agent"));
  return root;
}

describe.runIf(UNIX)("hostile-export-out-mode: nothing written that others may write", () => {
  it("under umask 000 the folders made are 0755 and the file 0644; the next export takes them", async () => {
    const root = project();
    const out = join(root, "new/sub/e.md");
    const old = process.umask(0);
    try {
      for (const pass of [1, 2]) {
        const run = await cli(root, join(root, "p"), ["export", "--agent", "codex", "--out", out]);
        expect(run.code, `${pass}: ${run.stderr}`).toBe(0);
      }
      const render = join(root, "r/x.md");
      const r = await cli(root, join(root, "p"), ["render", "-o", render]);
      expect(r.code, r.stderr).toBe(0);
      expect([mode(join(root, "r")), mode(render)]).toEqual([0o755, 0o644]);
    } finally {
      process.umask(old);
    }
    expect([mode(join(root, "new")), mode(join(root, "new/sub")), mode(out)]).toEqual([
      0o755, 0o755, 0o644,
    ]);
  });

  it("an existing 0666 --out file is written anew 0644, and said, even when its bytes are the same", async () => {
    const root = project();
    mkdirSync(join(root, "mine"));
    const out = join(root, "mine/e.md");
    const first = await cli(root, join(root, "p"), ["export", "--agent", "codex", "--out", out]);
    expect(first.code, first.stderr).toBe(0);
    const before = statSync(out).ino;
    chmodSync(out, 0o666);
    const run = await cli(root, join(root, "p"), ["export", "--agent", "codex", "--out", out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `sysprompt: warning: ${out} could be written by other users (mode 0666): it is written anew`,
    );
    expect(run.stderr).toContain(`sysprompt: wrote ${out}`);
    expect(mode(out)).toBe(0o644);
    // A new file: whoever held the old one open for writing no longer writes the prompt.
    expect(statSync(out).ino).not.toBe(before);
    // A private file stays private (0600), and unchanged is not rewritten.
    chmodSync(out, 0o600);
    const again = await cli(root, join(root, "p"), ["export", "--agent", "codex", "--out", out]);
    expect([again.code, again.stderr.includes("unchanged:"), mode(out)]).toEqual([0, true, 0o600]);
    expect(again.stderr).not.toContain("warning");
  });
});
