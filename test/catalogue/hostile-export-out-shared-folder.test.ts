import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev58d F6: `export --out` into a folder every user may write (0777) was written without
// a word, while the cache folder in the same state is refused: any local user could rename
// another file over the export, which the agent reads as its system prompt at each start.

function project() {
  const root = tempDir();
  for (const dir of ["p/.git", "home", "agent", "shared/sub", "sticky"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  chmodSync(join(root, "shared"), 0o777);
  chmodSync(join(root, "sticky"), 0o1777);
  return root;
}

describe("hostile-export-out-shared-folder: export --out refuses a folder others may write in", () => {
  it.skipIf(process.getuid === undefined)(
    "a 0777 folder, or one below it, is refused with the cache folder's advice; nothing written",
    async () => {
      const root = project();
      for (const out of ["shared/instructions.md", "shared/sub/instructions.md"]) {
        const target = join(root, out);
        const run = await cli(root, join(root, "p"), [
          "export",
          "--agent",
          "codex",
          "--out",
          target,
        ]);
        expect(run.code, out).toBe(2);
        expect(run.stderr, out).toContain(
          `export: ${join(root, "shared")}: writable by other users (mode 0777); sysprompt writes its export files only below folders no one else can write in or owns: run chmod go-w on it if it is yours, or pass --out with a path of yours`,
        );
        expect(existsSync(target), out).toBe(false);
      }
    },
  );

  it.skipIf(process.getuid === undefined)(
    "a sticky folder of yours, like /tmp, is written",
    async () => {
      const root = project();
      const target = join(root, "sticky", "instructions.md");
      const run = await cli(root, join(root, "p"), ["export", "--agent", "codex", "--out", target]);
      expect(run.code).toBe(0);
      expect(existsSync(target)).toBe(true);
    },
  );
});
