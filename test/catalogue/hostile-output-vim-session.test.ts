import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runByNameOf } from "../../src/cli/commands/_output-file.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev68d F4: `-o Session.vim` was written while `.exrc`, `.vimrc` and `.lvimrc` were
// refused; `vim -S` (no file: `./Session.vim`) sources it a line at a time, goes on past the
// prose lines' errors, and an AGENTS.md's `:call writefile(…)` line ran.

describe("hostile-output-vim-session: -o refuses Vim's session file", () => {
  it("Session.vim is a file another program runs by name, wherever it is", () => {
    for (const path of ["Session.vim", "sub/session.vim", "SESSION.VIM"]) {
      expect(runByNameOf(`/srv/p/${path}`), path).toBeDefined();
    }
    expect(runByNameOf("/srv/p/session.md")).toBeUndefined();
  });

  it("render -o Session.vim with a `:call` line in AGENTS.md is refused, nothing written", async () => {
    const root = tempDir();
    for (const dir of ["p/.git", "home", "agent"]) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, "p/AGENTS.md"), '# P\n\n:call writefile(["pwned"], "/tmp/x")\n');
    const out = await cli(root, join(root, "p"), ["render", "--untrusted", "-o", "Session.vim"]);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain("which another program runs or trusts line by line");
    expect(existsSync(join(root, "p/Session.vim"))).toBe(false);
  });
});
