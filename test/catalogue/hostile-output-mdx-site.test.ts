import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev107d F3 (medium): a prompt written to a `.md` file ran the repository's code when an
// MDX site built it: Docusaurus 3 compiles `.md` files as MDX by default, and an untrusted
// repository's `{…}` text (or an `export const x = …` line) is printed as is, so `render
// --untrusted -o site/docs/agent.md` put code into the site's build. The rev70b F4 decision
// refused `.mdx` targets only. Now a `.md`/`.markdown` target below a folder holding a Docusaurus
// config (up to the target's project root) is refused as a `.mdx` one is, no --force.

const REPO = "REPO-TEXT: {require('child_process').execSync('id > /tmp/pwned')}";

function setup() {
  const root = tempDir();
  for (const dir of ["agent", "home", "evil/.git", "evil/site/docs", "elsewhere", "mysite/docs"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  writeFileSync(join(root, "evil/site/docusaurus.config.js"), "module.exports = {};\n");
  writeFileSync(join(root, "mysite/docusaurus.config.ts"), "export default {};\n");
  return root;
}

const inClone = (root: string, argv: string[]) => cli(root, join(root, "evil"), argv);

const text = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

describe("hostile-output-mdx-site: -o a Markdown file below an MDX site", () => {
  it.each([
    ["render", "site/docs/x.md", "evil/site/docs/x.md"],
    ["render", "site/docs/new/deep/x.md", "evil/site/docs/new/deep/x.md"],
    ["render", "site/x.markdown", "evil/site/x.markdown"],
    ["render", "../mysite/docs/x.md", "mysite/docs/x.md"],
    ["export", "site/docs/x.md", "evil/site/docs/x.md"],
  ])("%s %s: refused, exit 2, nothing written", async (command, target, file) => {
    const root = setup();
    const argv =
      command === "render"
        ? ["render", "--untrusted", "-o", target]
        : ["export", "--untrusted", "--agent", "claude-code", "--out", target];
    const run = await inClone(root, argv);
    expect([target, run.code]).toEqual([target, 2]);
    expect(run.stderr).toContain("below an MDX site");
    expect(run.stderr).toContain("docusaurus.config");
    expect(text(join(root, file))).toBeUndefined();
  });

  it("a link of yours to the site's docs/: refused by where it leads", async () => {
    const root = setup();
    mkdirSync(join(root, "mysite/docs/sub"));
    mkdirSync(join(root, "home/app/.git"), { recursive: true });
    symlinkSync(join(root, "mysite/docs"), join(root, "home/sitedocs"));
    const run = await cli(root, join(root, "home/app"), ["render", "-o", "~/sitedocs/sub/x.md"]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("below an MDX site");
    expect(text(join(root, "mysite/docs/sub/x.md"))).toBeUndefined();
  });

  it("watch --export --out site/docs/x.md: refused before anything is watched", async () => {
    const root = setup();
    const run = await cli(
      root,
      join(root, "evil"),
      ["watch", "--export", "--untrusted", "--agent", "codex", "--out", "site/docs/x.md"],
      { signal: AbortSignal.timeout(4_000) },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(text(join(root, "evil/site/docs/x.md"))).toBeUndefined();
  });

  it("elsewhere, or a .txt in the site: written as before", async () => {
    const root = setup();
    for (const target of [join(root, "elsewhere/x.md"), "docs/x.md", "site/docs/x.txt"]) {
      const run = await inClone(root, ["render", "--untrusted", "-o", target]);
      expect([target, run.code, run.stderr]).toEqual([target, 0, expect.any(String)]);
    }
    expect(text(join(root, "elsewhere/x.md"))).toContain("REPO-TEXT");
    expect(text(join(root, "evil/site/docs/x.txt"))).toContain("REPO-TEXT");
  });
});
