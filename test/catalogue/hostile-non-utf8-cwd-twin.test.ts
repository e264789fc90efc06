import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { cliAt as cli } from "./_cli-at.js";

// rev58e F1: the repository commits a folder `<0xff>app`, a link `app` to it, and
// a "twin" link named `\uFFFDapp` (U+FFFD in UTF-8) to your other clone. Node
// gives the folder's real path, and process.cwd() inside it, as `…/\uFFFDapp`:
// that string resolves through the twin, and your clone's AGENTS.md, its imports
// and rules became the prompt's project. A working folder, root or touch cwd
// whose given or real spelling holds U+FFFD is now refused as not UTF-8.

const SAYS = "the path is not UTF-8";
const PRIVATE = /PRIVATE-[A-Z-]+/g;

function twinLayout() {
  const base = tempDir();
  const mine = join(base, "private");
  mkdirSync(join(mine, "deploy", "sub"), { recursive: true });
  writeFileSync(join(mine, "AGENTS.md"), "PRIVATE-REPO-AGENTS\n@deploy/notes.md\n");
  writeFileSync(join(mine, "deploy", "notes.md"), "PRIVATE-DEPLOY-NOTES\n");
  writeFileSync(join(mine, "deploy", "sub", "AGENTS.md"), "PRIVATE-NESTED-AGENTS\n");
  const repo = join(base, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  writeFileSync(join(repo, "AGENTS.md"), "ROOT-AGENTS\n");
  const bytes = Buffer.concat([Buffer.from([0xff]), Buffer.from("app")]);
  mkdirSync(Buffer.concat([Buffer.from(`${repo}/`), bytes]));
  symlinkSync(bytes, join(repo, "app"));
  symlinkSync("../private", join(repo, "\uFFFDapp"));
  // What process.cwd() gives inside `app`, and the way the user names it.
  return { base, lossy: join(repo, "\uFFFDapp"), named: join(repo, "app") };
}

describe("hostile-non-utf8-cwd-twin: a twin link named with U+FFFD does not become the project", () => {
  it("--cwd through the link, and run inside the folder: exit 2, not UTF-8, nothing of your clone", async () => {
    const { base, lossy, named } = twinLayout();
    const home = join(base, "home");
    for (const [argv, cwd] of [
      [["render", "--tree", "--cwd", named], base],
      [["render", "--untrusted", "--cwd", named], base],
      [["render", "--tree"], lossy],
      [["render", "--untrusted"], lossy],
    ] as const) {
      const got = await cli([...argv], cwd, home);
      expect(got.out.match(PRIVATE) ?? []).toEqual([]);
      expect(got.code).toBe(2);
      expect(got.err).toContain(`cwd: ${SAYS}`);
    }
    const root = await cli(["render", "--root", named], base, home);
    expect(root.code).toBe(2);
    expect(root.err).toContain(`--root / roots: ${SAYS}`);
    expect(root.out.match(PRIVATE) ?? []).toEqual([]);
  });

  it("the library refuses the folder; the touch look (the hook's) gives nothing of your clone", async () => {
    const { base, lossy, named } = twinLayout();
    for (const cwd of [named, lossy]) {
      await expect(renderSystemPrompt(pinned(base, { cwd }))).rejects.toThrow(SAYS);
      const touched = loadContextForPaths([join(cwd, "deploy", "sub", "x.ts")], {
        cwd,
        home: join(base, "home"),
      }).then((r) => JSON.stringify(r));
      await expect(touched).rejects.toThrow(SAYS);
    }
  });
});
