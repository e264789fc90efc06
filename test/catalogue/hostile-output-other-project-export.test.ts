import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, cloneBesideProject } from "./_output-link.js";

// Review rev101d F5 (low): `render -o ~/.cache/sysprompt/export/claude-code/<other project>/
// system-prompt.md` replaced another project's export file, which its agent reads as its system
// prompt (`--system-prompt-file` in its line), exit 0: sysprompt's cache folder was left to "its
// own judges" by the dot-name rule and no judge refused it. Now no named output is written below
// sysprompt's cache folder (by its path and real path; `$XDG_CACHE_HOME/sysprompt` too): its
// files are sysprompt's caches and each project's export, which export writes itself.

const OTHER = "home/.cache/sysprompt/export/claude-code/wk-proj-1a2b3c/system-prompt.md";

function setup() {
  const root = cloneBesideProject(
    "home/.cache/sysprompt/export/claude-code/wk-proj-1a2b3c",
    "xdg/sysprompt/export/codex/p",
  );
  writeFileSync(join(root, OTHER), "MY-OTHER-PROJECT-PROMPT\n");
  return root;
}

const fromClone = (root: string, argv: string[], env: Record<string, string> = {}) =>
  cli(root, join(root, "evil"), argv, { env });

describe("hostile-output-other-project-export: -o into sysprompt's cache folder", () => {
  it.each([
    [["render", "--untrusted", "-o", `~/${OTHER.slice(5)}`]],
    [["render", "--untrusted", "-o", `~/${OTHER.slice(5)}`, "--force"]],
    [["render", "-o", `~/${OTHER.slice(5)}`, "--force"]],
    [["export", "--agent", "claude-code", "--untrusted", "--out", `~/${OTHER.slice(5)}`]],
    [["render", "--untrusted", "-o", "~/.cache/sysprompt/notes.md"]],
  ])("%j: refused, exit 2; the other project's export unchanged", async (argv) => {
    const root = setup();
    const run = await fromClone(root, argv);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("a file in sysprompt's cache folder");
    expect(readFileSync(join(root, OTHER), "utf8")).toBe("MY-OTHER-PROJECT-PROMPT\n");
    expect(existsSync(join(root, "home/.cache/sysprompt/notes.md"))).toBe(false);
  });

  it("$XDG_CACHE_HOME's sysprompt folder: refused too", async () => {
    const root = setup();
    const env = { XDG_CACHE_HOME: join(root, "xdg") };
    const out = join(root, "xdg/sysprompt/export/codex/p/instructions.md");
    const run = await fromClone(root, ["render", "--untrusted", "-o", out], env);
    expect(run.code, run.stderr).toBe(2);
    expect(existsSync(out)).toBe(false);
  });

  it("held: export with no --out writes its own file there", async () => {
    const root = setup();
    mkdirSync(join(root, "home/.cache/sysprompt"), { recursive: true });
    const run = await fromClone(root, ["export", "--agent", "claude-code", "--untrusted"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("wrote");
  });
});
