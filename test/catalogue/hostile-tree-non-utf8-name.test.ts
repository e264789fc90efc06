import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// A file name that is not UTF-8 (`sec\xff`) came from Node's readdir as
// `sec\uFFFD`, three bytes where git's `?` takes the one byte: the tree listed
// a name `sec?` makes git ignore (review rev51a F5). Such a name has no
// verdict of git's and opens nothing: the tree leaves it out.

describe("hostile repository: a file name that is not UTF-8", () => {
  it("is left out of the workspace tree, which git's `sec?` hides", async () => {
    const base = tempDir();
    writeFiles(base, { "p/.gitignore": "sec?\n", "p/AGENTS.md": "# P\n", "p/kept.txt": "x\n" });
    const cwd = join(base, "p");
    execFileSync("git", ["init", "-q", cwd]);
    const dir = Buffer.from(`${cwd}/`);
    writeFileSync(Buffer.concat([dir, Buffer.from([0x73, 0x65, 0x63, 0xff])]), "x");
    writeFileSync(Buffer.concat([dir, Buffer.from([0x6c, 0x73, 0x74, 0xff])]), "x");
    const status = execFileSync(
      "git",
      ["-c", "core.quotePath=true", "status", "--short", "--ignored"],
      {
        cwd,
        encoding: "utf8",
      },
    );
    expect(status).toContain('!! "sec\\377"');
    const tree = await buildWorkspaceTree(cwd, { mtime: "2026-01-01T00:00:00Z" });
    expect(tree.rendered).toContain("kept.txt");
    expect(tree.rendered).not.toContain("\uFFFD");
  });
});
