import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mdxSiteOf } from "../../src/cli/commands/_output-file.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev109f F8 (medium): the Docusaurus refusal (rev107d F3, rev108a F3) looked for a site's
// config only up to the outermost repository's top, so where the site itself is no repository and
// its docs/ holds a clone (`site2/docs/api/.git`), `render --untrusted -o site2/docs/api/notes.md`
// was written, and Docusaurus compiles it as MDX: a repository's `{…}` runs when the site builds.
// Now the look goes on past every repository's top, 32 folders up at most, not above your home
// folder (unless still inside a repository holding it) nor the file system's root.

const REPO = "REPO-TEXT: {require('child_process').execSync('id > /tmp/pwned')}";

function setup() {
  const root = tempDir();
  for (const dir of ["agent", "home", "evil/.git", "site2/docs/api/.git", "site2/tools/api/.git"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  writeFileSync(join(root, "site2/docusaurus.config.ts"), "export default {};\n");
  return root;
}

const inClone = (root: string, argv: string[]) => cli(root, join(root, "evil"), argv);

describe("hostile-output-mdx-site-nested-clone: a clone in the docs/ of a site that is no repository", () => {
  it.each([
    ["render", "site2/docs/api/notes.md"],
    ["render", "site2/docs/api/new/deep/notes.md"],
    ["export", "site2/docs/api/notes.md"],
  ])("%s %s: refused, nothing written", async (command, file) => {
    const root = setup();
    const target = join(root, file);
    const argv =
      command === "render"
        ? ["render", "--untrusted", "-o", target]
        : ["export", "--untrusted", "--agent", "claude-code", "--out", target];
    const run = await inClone(root, argv);
    expect([file, run.code]).toEqual([file, 2]);
    expect(run.stderr).toContain("below a site that compiles Markdown as code");
    expect(run.stderr).toContain(join(root, "site2/docusaurus.config.ts"));
    expect(existsSync(target)).toBe(false);
  });

  it("a clone in a folder the site does not compile: written", async () => {
    const root = setup();
    const target = join(root, "site2/tools/api/notes.md");
    const run = await inClone(root, ["render", "--untrusted", "-o", target]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(target, "utf8")).toContain("REPO-TEXT");
  });

  it("not looked for above the home folder", async () => {
    const root = tempDir();
    mkdirSync(join(root, "docs/home/notes"), { recursive: true });
    writeFileSync(join(root, "docusaurus.config.js"), "module.exports = {};\n");
    const write = join(root, "docs/home/notes/x.md");
    expect(await mdxSiteOf(write, join(root, "docs/home"))).toBeUndefined();
    expect(await mdxSiteOf(write)).toMatchObject({
      site: "Docusaurus",
      config: join(root, "docusaurus.config.js"),
    });
  });
});
