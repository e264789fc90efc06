import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// Your exclude file keeps a file private from an untrusted project, read where
// git reads it (hostile-exclude-common-dir). A file inside a submodule is
// governed by the submodule's exclude file (`.git/modules/<name>/info/exclude`,
// git in the submodule calls it ignored), but the superproject's check read
// only the superproject's: its AGENTS.md linked to `sub/deploy-key.txt` and the
// key came in, from the superproject and from inside the submodule alike
// (review rev36b, a7). The repository that holds the file decides.

/** `outer` (a git root) with the submodule `sub`, whose exclude file names deploy-key.txt. */
function layout() {
  const base = tempDir();
  const outer = join(base, "outer");
  const modules = join(outer, ".git", "modules", "sub");
  mkdirSync(join(modules, "info"), { recursive: true });
  writeFileSync(join(modules, "info", "exclude"), "deploy-key.txt\n");
  const sub = join(outer, "sub");
  mkdirSync(sub);
  writeFileSync(join(sub, ".git"), "gitdir: ../.git/modules/sub\n");
  writeFileSync(join(sub, "deploy-key.txt"), "SECRET-MARKER-DEPLOY\n");
  writeFileSync(join(sub, "notes.md"), "SUB-NOTES-MARKER\n");
  const home = join(base, "home");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  return { outer, sub, home };
}

const render = (cwd: string, home: string) =>
  renderSystemPrompt({ cwd, home, env: {}, projectTrusted: false });

describe("hostile repository: a submodule's exclude file", () => {
  it("a link from the superproject to a file the submodule excludes is refused, from either folder", async () => {
    const { outer, sub, home } = layout();
    symlinkSync("sub/deploy-key.txt", join(outer, "AGENTS.md"));
    for (const cwd of [outer, sub]) {
      const result = await render(cwd, home);
      expect(result.text, cwd).not.toContain("SECRET-MARKER-DEPLOY");
      const refused = result.diagnostics.filter((d) => d.code === "context-private");
      expect(refused.map((d) => d.message.includes("sub/deploy-key.txt"))).toEqual([true]);
    }
  });

  it("a file of the submodule its exclude file does not name is read as before", async () => {
    const { outer, home } = layout();
    symlinkSync("sub/notes.md", join(outer, "AGENTS.md"));
    const result = await render(outer, home);
    expect(result.text).toContain("SUB-NOTES-MARKER");
  });
});
