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
//
// Review rev108a F4 (medium, a regression of that fix): in a repository with a Docusaurus config
// at its top, every Markdown target was refused, trusted or not (`render -o AGENTS.md`, `-o
// .github/copilot-instructions.md`, `export --out CLAUDE.md`). Docusaurus compiles only its content
// folders: now only a target below the site's default content folders (docs/, blog/, src/pages/,
// versioned_docs/, i18n/) is refused. Review rev108a F3 (medium): a `docusaurus.config.mts` or
// `.cts` was not looked for, and a docs/ that is a repository of its own (a submodule) never
// reached the site's config above its root.

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
    ["render", "site/blog/x.markdown", "evil/site/blog/x.markdown"],
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
    expect(run.stderr).toContain("below a site that compiles Markdown as code");
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
    expect(run.stderr).toContain("below a site that compiles Markdown as code");
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

  it.each([
    "docs/x.md",
    "blog/2024/x.md",
    "src/pages/x.md",
    "versioned_docs/version-1.0/x.md",
    "i18n/fr/docusaurus-plugin-content-docs/current/x.md",
  ])("a site at the repository's top: %s refused", async (target) => {
    const root = setup();
    writeFileSync(join(root, "evil/docusaurus.config.js"), "module.exports = {};\n");
    const run = await inClone(root, ["render", "--untrusted", "-o", target]);
    expect([target, run.code]).toEqual([target, 2]);
    expect(run.stderr).toContain("below a site that compiles Markdown as code");
    expect(text(join(root, "evil", target))).toBeUndefined();
  });

  it("a site at the repository's top: AGENTS.md, .github/…, CLAUDE.md written as before", async () => {
    const root = setup();
    mkdirSync(join(root, "dsite/.git"), { recursive: true });
    mkdirSync(join(root, "dsite/.github"));
    writeFileSync(join(root, "dsite/docusaurus.config.js"), "module.exports = {};\n");
    writeFileSync(join(root, "dsite/README.md"), "# site\n");
    const written = ["AGENTS.md", ".github/copilot-instructions.md", "notes/agent.md", "CLAUDE.md"];
    for (const argv of [
      ["render", "-o", "AGENTS.md"],
      ["render", "-o", ".github/copilot-instructions.md"],
      ["render", "--untrusted", "-o", "notes/agent.md"],
      ["export", "--agent", "claude-code", "--out", "CLAUDE.md"],
    ]) {
      const run = await cli(root, join(root, "dsite"), argv);
      expect([argv, run.code, run.stderr]).toEqual([argv, 0, expect.any(String)]);
    }
    for (const file of written)
      expect([file, existsSync(join(root, "dsite", file))]).toEqual([file, true]);
  });

  it.each(["mts", "cts"])("a docusaurus.config.%s: refused", async (ending) => {
    const root = setup();
    mkdirSync(join(root, "evil/web/docs"), { recursive: true });
    writeFileSync(join(root, `evil/web/docusaurus.config.${ending}`), "export default {};\n");
    const run = await inClone(root, ["render", "--untrusted", "-o", "web/docs/x.md"]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`docusaurus.config.${ending}`);
    expect(text(join(root, "evil/web/docs/x.md"))).toBeUndefined();
  });

  it("docs/ a repository of its own (a submodule): refused by the site's config above it", async () => {
    const root = setup();
    mkdirSync(join(root, "evil/site/docs/.git"));
    const run = await cli(root, join(root, "evil/site/docs"), [
      "render",
      "--untrusted",
      "-o",
      "x.md",
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("below a site that compiles Markdown as code");
    const outer = await inClone(root, ["render", "--untrusted", "-o", "site/docs/y.md"]);
    expect(outer.code, outer.stderr).toBe(2);
    expect(text(join(root, "evil/site/docs/x.md"))).toBeUndefined();
    expect(text(join(root, "evil/site/docs/y.md"))).toBeUndefined();
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
