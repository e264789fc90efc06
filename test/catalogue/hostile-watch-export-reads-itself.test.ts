import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { QUIET_MS, until } from "../author/_until.js";
import { cli } from "./_output-link.js";

// Review rev56d F2 (low): `watch --export --out build/p.md` in a project
// whose AGENTS.md imports `@build/p.md` re-rendered on each of its own
// exports: 40 renders in 5 s, the export growing to the import's 256 KiB cut
// with a hundred nested copies of the prompt. The export's own write is no
// change now (the file as watch last wrote it), and the first render warns
// that the export target is one of its inputs (`watch-output-read`).

/** Re-render reports (`[N] … changed: …`) in watch's output. */
const rerenders = (stdout: string) => stdout.match(/^\[\d+\] /gm)?.length ?? 0;

describe("hostile repository: a project that imports watch's own export", () => {
  it("the export is not a trigger; an edit of AGENTS.md renders once; the first render warns", async () => {
    const root = tempDir();
    for (const dir of ["agent", "home", "p/.git", "p/build"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    writeFileSync(join(root, "p/.git/HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(root, "p/AGENTS.md"), "PROJ-MARKER\n@build/p.md\n");
    writeFileSync(join(root, "p/build/p.md"), "start\n");
    const controller = new AbortController();
    const seen = { stdout: "" };
    const argv = ["watch", "--agent", "gemini-cli", "--export", "--out", "build/p.md"];
    const done = cli(root, join(root, "p"), argv, { signal: controller.signal, seen });
    try {
      await until(() => seen.stdout.includes("exported "), "the first export");
      expect(seen.stdout).toContain(
        `warning ${join(root, "p/build/p.md")} [watch-output-read] the export target is one of this render's inputs`,
      );
      // Its own export, which the render reads, would have re-rendered within the debounce.
      await new Promise((resolve) => setTimeout(resolve, 3 * QUIET_MS));
      expect(rerenders(seen.stdout)).toBe(0);
      // A change of yours still renders, once: the export it writes starts nothing.
      appendFileSync(join(root, "p/AGENTS.md"), "EDITED\n");
      await until(() => rerenders(seen.stdout) === 1, "the edit's render");
      await until(() => (seen.stdout.match(/^exported /gm)?.length ?? 0) === 2, "its export");
      await new Promise((resolve) => setTimeout(resolve, 3 * QUIET_MS));
      expect(rerenders(seen.stdout)).toBe(1);
      // The export holds your AGENTS.md once as the edit's render read it, and the first export in it.
      expect(readFileSync(join(root, "p/build/p.md"), "utf8").match(/PROJ-MARKER/g)).toHaveLength(
        2,
      );
    } finally {
      controller.abort();
    }
    expect((await done).code).toBe(0);
  }, 30_000);
});
