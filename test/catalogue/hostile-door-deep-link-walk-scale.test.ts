import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// The door asks the entries of a path that resolves elsewhere (a link on its
// way), but not those of the real folders it shares with its real path
// (review rev61c F4): before, every rule file read through a linked rules
// folder looked up every folder above it, depth times files.

/** The door's look-ups (`lstat`) of the folders `below` and under it named `d` (a deep chain's). */
const asked = vi.hoisted(() => ({ below: "", count: 0 }));

vi.mock("../../src/_io.js", async (importOriginal) => {
  const io = await importOriginal<typeof import("../../src/_io.js")>();
  const lstatOrMissing = (path: string) => {
    const folders = asked.below === "" ? undefined : path.split(asked.below)[1];
    if (
      folders !== undefined &&
      /^(\/d)*$/.test(folders) &&
      new Error().stack?.includes("openChecked")
    )
      asked.count++;
    return io.lstatOrMissing(path);
  };
  return { ...io, lstatOrMissing };
});

describe("catalogue: the door's walk of a linked file's way costs what the link adds", () => {
  it("door-deep-link-walk: a rule folder linked 200 folders deep asks no look-up of the folders above it", async () => {
    const root = tempDir();
    let proj = root;
    for (let i = 0; i < 200; i++) proj = join(proj, "d");
    mkdirSync(join(proj, ".git"), { recursive: true });
    mkdirSync(join(proj, "real-rules"));
    for (let i = 0; i < 20; i++)
      writeFileSync(join(proj, `real-rules/r${i}.mdc`), `---\nalwaysApply: true\n---\nrule ${i}\n`);
    mkdirSync(join(proj, ".cursor"));
    symlinkSync("../real-rules", join(proj, ".cursor/rules"));
    asked.below = join(root, "d");
    asked.count = 0;
    const result = await renderSystemPrompt(pinned(root, { cwd: proj }));
    asked.below = "";
    expect(result.text).toContain("rule 19");
    // Before, each of the 20 files looked up all 200 folders: 4,000 look-ups.
    expect(asked.count).toBe(0);
  });
});
