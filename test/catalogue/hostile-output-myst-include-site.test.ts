import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev109d F2 (medium): `render --untrusted -o site/docs/agent-prompt.md`, with a Sphinx
// site's `docs/conf.py` listing `myst_parser`, wrote an untrusted AGENTS.md's MyST fence
// "```{include} ../../…/proc/self/environ" into a page, and `sphinx-build` put the process's
// environment (CI tokens), or `~/.ssh/id_rsa`, into the built HTML. Now a `.md` target below a
// folder holding a `conf.py` that names a Markdown parser (myst_parser, myst_nb, recommonmark,
// m2r, a `markdown` source suffix) is refused, exit 2; a Sphinx site of reStructuredText only,
// or another program's `conf.py`, is not one.

const REPO = "REPO-TEXT\n\n```{include} ../../../../../../../../proc/self/environ\n```";

function setup() {
  const root = tempDir();
  for (const dir of ["agent", "home", "evil/.git", "site/docs/guide", "rst/docs", "app/pkg"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  writeFileSync(join(root, "site/docs/conf.py"), 'extensions = ["myst_parser"]\n');
  writeFileSync(join(root, "rst/docs/conf.py"), 'extensions = ["sphinx.ext.autodoc"]\n');
  writeFileSync(join(root, "app/pkg/conf.py"), "DEBUG = False\n");
  return root;
}

const text = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

describe("hostile-output-myst-include-site: -o a Markdown page of a Sphinx site that reads Markdown", () => {
  it.each([
    ["render", "../site/docs/agent-prompt.md"],
    ["render", "../site/docs/guide/new/x.markdown"],
    ["render", "../site/docs/.hidden/x.md"],
    ["export", "../site/docs/agent-prompt.md"],
  ])("%s %s: refused, exit 2, nothing written", async (command, target) => {
    const root = setup();
    const argv =
      command === "render"
        ? ["render", "--untrusted", "-o", target]
        : ["export", "--untrusted", "--agent", "claude-code", "--out", target];
    const run = await cli(root, join(root, "evil"), argv);
    expect([target, run.code]).toEqual([target, 2]);
    expect(run.stderr).toContain("a site that compiles Markdown as code");
    expect(run.stderr).toContain("conf.py");
    expect(text(join(root, "evil", target))).toBeUndefined();
  });

  it.each([
    'extensions = ["myst_nb"]',
    "extensions = ['recommonmark']",
    'source_suffix = {".rst": "restructuredtext", ".md": "markdown"}',
  ])("a conf.py naming a Markdown parser (%s): refused", async (line) => {
    const root = setup();
    mkdirSync(join(root, "evil/doc"));
    writeFileSync(join(root, "evil/doc/conf.py"), `${line}\n`);
    const run = await cli(root, join(root, "evil"), ["render", "--untrusted", "-o", "doc/x.md"]);
    expect(run.code, run.stderr).toBe(2);
    expect(text(join(root, "evil/doc/x.md"))).toBeUndefined();
  });

  it("reStructuredText-only Sphinx, another program's conf.py, a .txt, out of the site: written", async () => {
    const root = setup();
    for (const target of [
      "../rst/docs/x.md",
      "../app/pkg/x.md",
      "../site/docs/x.txt",
      "../site/x.md",
    ]) {
      const run = await cli(root, join(root, "evil"), ["render", "--untrusted", "-o", target]);
      expect([target, run.code, run.stderr]).toEqual([target, 0, expect.any(String)]);
      expect(text(join(root, "evil", target))).toContain("REPO-TEXT");
    }
  });
});
