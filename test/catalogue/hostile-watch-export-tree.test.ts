import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isTempNameOf, tempName } from "../../src/_safe-write.js";
import { tempDir } from "../api/_helpers.js";
import { QUIET_MS, until } from "../author/_until.js";
import { cli } from "./_output-link.js";

// Review rev92d F1 (medium): `watch --tree --export --out prompt.md` in a project heard its own
// safe write's temporary file `.prompt.md.<pid>.<hex>.tmp` (made, written, renamed onto the
// target) in the project folder, watched whole for the tree: each export started the next
// render. With `See @prompt.md` in AGENTS.md, 191 renders in 120 s, the export growing to the
// import's cap; with the export's size on a KB boundary in the tree, renders for ever. The
// write's own temporary name (the writer's `isTempNameOf`) is no change now.

/** Re-render reports (`[N] … changed: …`) in watch's output. */
const rerenders = (stdout: string) => stdout.match(/^\[\d+\] /gm)?.length ?? 0;

/** Watch's report lines (renders, exports), for a failure's message. */
const reports = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => /^(\[\d+\] |exported |export unchanged|rendered )/.test(l))
    .join("\n");

describe("hostile repository: watch --tree hears its own export's temporary file", () => {
  it("the export is no trigger with --tree; an edit renders once; the temporary name is the writer's", async () => {
    const root = tempDir();
    for (const dir of ["agent", "home", "p/.git", "p/src"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    writeFileSync(join(root, "p/.git/HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(root, "p/AGENTS.md"), "PROJ-MARKER\nSee @prompt.md\n");
    writeFileSync(join(root, "p/src/a.ts"), "x\n");
    const controller = new AbortController();
    const seen = { stdout: "" };
    const argv = ["watch", "--agent", "gemini-cli", "--tree", "--export", "--out", "prompt.md"];
    // Not pinned to an agent dir of the case's: the tree's cache would be written in its `cache/`, a
    // folder watch watches whole (one more render, when the cache folder is made under load).
    const done = cli(root, join(root, "p"), argv, {
      signal: controller.signal,
      seen,
      pinned: false,
    });
    try {
      await until(() => seen.stdout.includes("exported "), "the first export");
      // Its own export's temporary file would have re-rendered within the debounce, again and again.
      await new Promise((resolve) => setTimeout(resolve, 3 * QUIET_MS));
      expect(rerenders(seen.stdout), reports(seen.stdout)).toBe(0);
      // A change of yours still renders, once: the export it writes starts nothing.
      appendFileSync(join(root, "p/AGENTS.md"), "EDITED\n");
      await until(() => rerenders(seen.stdout) === 1, "the edit's render");
      await until(() => (seen.stdout.match(/^exported /gm)?.length ?? 0) === 2, "its export");
      await new Promise((resolve) => setTimeout(resolve, 3 * QUIET_MS));
      expect(rerenders(seen.stdout), reports(seen.stdout)).toBe(1);
      expect(readFileSync(join(root, "p/prompt.md"), "utf8").match(/PROJ-MARKER/g)).toHaveLength(2);
    } finally {
      controller.abort();
    }
    expect((await done).code).toBe(0);
    expect(readdirSync(join(root, "p")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  }, 30_000);

  it("isTempNameOf takes this process's temporary names beside the file, and no other", () => {
    for (const base of ["prompt.md", "a".repeat(250)]) {
      expect(isTempNameOf(tempName(base), base)).toBe(true);
      expect(isTempNameOf(tempName(base), `${base}x`)).toBe(false);
    }
    const pid = process.pid;
    expect(isTempNameOf(`.prompt.md.${pid + 1}.0123456789ab.tmp`, "prompt.md")).toBe(false);
    expect(isTempNameOf(`.prompt.md.${pid}.0123456789ab.tmp`, "prompt.md")).toBe(true);
    expect(isTempNameOf(`.prompt.md.${pid}.0123456789a.tmp`, "prompt.md")).toBe(false);
    expect(isTempNameOf(`.prompt.md.${pid}.0123456789aZ.tmp`, "prompt.md")).toBe(false);
    expect(isTempNameOf("prompt.md", "prompt.md")).toBe(false);
  });
});
