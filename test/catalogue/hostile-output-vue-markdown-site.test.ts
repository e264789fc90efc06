import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev109d F1 (high): `render --untrusted -o mysite/docs/agent-prompt.md`, with your own
// VitePress site's `docs/.vitepress/config.mts`, wrote an untrusted repository's AGENTS.md line
// `{{ $emit.constructor('return process')()…execSync(…) }}` into a page, and `vitepress build docs`
// ran it: VitePress (and VuePress) compile every Markdown page below the site's folder as a Vue
// component, its `{{ … }}` and `<script setup>` code. Only Docusaurus was a site refused. Now a
// `.md` target below a folder holding `.vitepress/config.*` or `.vuepress/config.*` (not in
// node_modules/ or a dot folder there) is refused as one below a Docusaurus site is, exit 2.

const REPO = "REPO-TEXT: {{ $emit.constructor('return process')() }}";

function setup() {
  const root = tempDir();
  for (const dir of [
    "agent",
    "home",
    "evil/.git",
    "mysite/docs/.vitepress",
    "press/docs/.vuepress",
  ]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  writeFileSync(join(root, "mysite/docs/.vitepress/config.mts"), "export default {};\n");
  writeFileSync(join(root, "mysite/docs/index.md"), "# Home\n");
  writeFileSync(join(root, "press/docs/.vuepress/config.js"), "module.exports = {};\n");
  return root;
}

const text = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

describe("hostile-output-vue-markdown-site: -o a Markdown page of a VitePress or VuePress site", () => {
  it.each([
    ["render", "../mysite/docs/agent-prompt.md", ".vitepress/config.mts"],
    ["render", "../mysite/docs/guide/new/deep.md", ".vitepress/config.mts"],
    ["export", "../mysite/docs/agent-prompt.md", ".vitepress/config.mts"],
    ["render", "../press/docs/guide.md", ".vuepress/config.js"],
    ["export", "../press/docs/sub/guide.md", ".vuepress/config.js"],
  ])("%s %s: refused, exit 2, nothing written", async (command, target, config) => {
    const root = setup();
    const argv =
      command === "render"
        ? ["render", "--untrusted", "-o", target]
        : ["export", "--untrusted", "--agent", "claude-code", "--out", target];
    const run = await cli(root, join(root, "evil"), argv);
    expect([target, run.code]).toEqual([target, 2]);
    expect(run.stderr).toContain("a site that compiles Markdown as code");
    expect(run.stderr).toContain(config);
    expect(text(join(root, "evil", target))).toBeUndefined();
  });

  it.each(["ts", "js", "mjs", "cjs", "cts"])("a .vitepress/config.%s marks the site", async (e) => {
    const root = setup();
    mkdirSync(join(root, "evil/web/.vitepress"), { recursive: true });
    writeFileSync(join(root, `evil/web/.vitepress/config.${e}`), "export default {};\n");
    const run = await cli(root, join(root, "evil"), ["render", "--untrusted", "-o", "web/x.md"]);
    expect(run.code, run.stderr).toBe(2);
    expect(text(join(root, "evil/web/x.md"))).toBeUndefined();
  });

  it("node_modules/, a dot folder, a .txt, out of the site: written as before", async () => {
    const root = setup();
    mkdirSync(join(root, "mysite/docs/node_modules/pkg"), { recursive: true });
    mkdirSync(join(root, "mysite/docs/.notes"));
    for (const target of [
      "../mysite/docs/node_modules/pkg/x.md",
      "../mysite/docs/.notes/x.md",
      "../mysite/docs/agent-prompt.txt",
      "../mysite/x.md",
      "notes/x.md",
    ]) {
      const run = await cli(root, join(root, "evil"), ["render", "--untrusted", "-o", target]);
      expect([target, run.code, run.stderr]).toEqual([target, 0, expect.any(String)]);
      expect(text(join(root, "evil", target))).toContain("REPO-TEXT");
    }
  });
});
