import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runByNameOf } from "../../src/cli/commands/_output-file.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev53d F2: outside the home folder (a container's /workspace, /srv), `render -o` wrote
// the prompt to `.pdbrc`, whose lines pdb runs (an untrusted AGENTS.md's `import os; os.system(…)`
// ran at `python3 -m pdb t.py`), and to other names a program runs or trusts line by line:
// Vim's and Neovim's exrc files, dotenv files other than `.env`, a `.pth` file.

const RUN_BY_NAME = [
  ".pdbrc",
  ".nvimrc",
  ".nvim.lua",
  ".gvimrc",
  "_vimrc",
  "_gvimrc",
  "_exrc",
  ".lvimrc",
  ".env.local",
  ".env.development.local",
  ".flaskenv",
  "x.pth",
  "site-packages/evil.PTH",
];

describe("hostile-output-run-by-name-outside-home: -o refuses pdb's, Vim's, dotenv's and Python's start-up files", () => {
  it("each name is a file another program runs by name", () => {
    for (const name of RUN_BY_NAME) expect(runByNameOf(`/srv/out/${name}`), name).toBeDefined();
    for (const name of ["prompt.md", ".pth", ".env.", "pth", "notes.env", "x.pthx"]) {
      expect(runByNameOf(`/srv/out/${name}`), name).toBeUndefined();
    }
  });

  it("render -o .pdbrc outside the home folder is refused, nothing written", async () => {
    const root = tempDir();
    for (const dir of ["p/.git", "home", "agent", "other"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    const target = join(root, "other", ".pdbrc");
    const out = await cli(root, join(root, "p"), ["render", "-o", target], {
      home: join(root, "home"),
    });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("a file named .pdbrc");
    expect(existsSync(target)).toBe(false);
  });
});
