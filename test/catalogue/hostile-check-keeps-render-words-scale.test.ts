import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { tempDir } from "../api/_helpers.js";

// rev82e F6: check says what a render says, less a render's template problem at a file check
// found a problem in itself (its finding says more). It dropped every render diagnostic at such a
// file: a project's `.pi/sections/mine.md` replacing your `mine` section, with an unknown
// frontmatter key, gave check's `section-meta-unknown` and no word of your section left out,
// which `render` warns of (`user-text-left-out`). Only the render's `template` problems are left.

function project(files: Record<string, string>) {
  const root = tempDir();
  for (const [path, text] of Object.entries({
    "p/.git/HEAD": "ref: refs/heads/main\n",
    ...files,
  })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, "home", ".pi", "agent"), { recursive: true });
  return {
    root,
    options: {
      cwd: join(root, "p"),
      agentDir: join(root, "home", ".pi", "agent"),
      home: join(root, "home"),
      env: {},
    },
  };
}

describe("hostile repository: check keeps a render's word at a file it found a problem in", () => {
  it("check-keeps-left-out: your replaced section is said beside the section's own problem", async () => {
    const { root, options } = project({
      "home/.pi/agent/sections/mine.md": "---\norder: 50\n---\nMY-OWN-SECTION text\n",
      "p/.pi/sections/mine.md": "---\norder: 50\nbogus: 1\n---\nTHEIRS replaces\n",
    });
    const report = await checkProject(options);
    const theirs = join(root, "p", ".pi", "sections", "mine.md");
    const codes = report.diagnostics.filter((d) => d.path === theirs).map((d) => d.code);
    expect(codes).toEqual(expect.arrayContaining(["section-meta-unknown", "user-text-left-out"]));
  });

  it("a render's template problem at a file check found one in is still said once, by check", async () => {
    const { options } = project({
      "p/.pi/sections/team.md": '---\norder: 75\nbogus: 1\n---\n{{shout "x"}}\n',
    });
    const report = await checkProject(options);
    const team = report.diagnostics.filter((d) => d.path?.endsWith("team.md"));
    expect(team.map((d) => d.code).sort()).toEqual(["section-meta-unknown", "unknown-helper"]);
  });
});
