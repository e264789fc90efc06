import { lstatSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listFolderAtOnce, listInBatches } from "../../src/repo-files/list-folder.js";
import { tempDir } from "../api/_helpers.js";

// hostile repository: the tree walk lstats a folder, then lists it by its path: a link swapped in
// between (another process renaming the folder away and a link to ~/.ssh in
// its place) was followed, and the names of what it led to were listed in
// the workspace tree. With the lstat as `checked`, the listing opens the
// folder without following a final link (O_NOFOLLOW), checks it is the one
// lstat saw (device and inode), and reads it by its descriptor
// (/proc/self/fd): a swapped-in link, or another folder, is as if gone.

/** `src`, checked, then swapped for `swap()`'s entry; and the folder a link would lead to. */
function swapped(swap: (src: string, secrets: string, root: string) => void) {
  const root = tempDir();
  const src = join(root, "project", "src");
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, "a.ts"), "");
  const secrets = join(root, "home", ".ssh");
  mkdirSync(secrets, { recursive: true });
  writeFileSync(join(secrets, "id_rsa"), "SECRET-MARKER\n");
  const checked = lstatSync(src);
  swap(src, secrets, root);
  return { src, checked };
}

const toLink = (src: string, secrets: string) => {
  renameSync(src, `${src}.away`);
  symlinkSync(secrets, src);
};
const toOtherFolder = (src: string, _secrets: string, root: string) => {
  renameSync(src, `${src}.away`);
  mkdirSync(join(root, "other"));
  writeFileSync(join(root, "other", "b.ts"), "");
  renameSync(join(root, "other"), src);
};

describe.skipIf(process.platform !== "linux")(
  "a folder swapped after its check is not listed",
  () => {
    for (const [what, swap] of [
      ["for a link", toLink],
      ["for another folder", toOtherFolder],
    ] as const) {
      it(`${what}: in one call and in batches, nothing listed and nothing said unreadable`, async () => {
        const { src, checked } = swapped(swap);
        const unreadable: string[] = [];
        const said = () => unreadable.push(src);
        const once = listFolderAtOnce(src, checked.size, 100, said, checked);
        const batches = await listInBatches(src, 100, undefined, said, checked);
        expect([once?.entries, batches.entries, unreadable]).toEqual([[], [], []]);
      });
    }

    it("unswapped, the folder checked is listed", async () => {
      const { src, checked } = swapped(() => undefined);
      const once = listFolderAtOnce(src, checked.size, 100, () => undefined, checked);
      const batches = await listInBatches(src, 100, undefined, () => undefined, checked);
      expect([once?.entries.map((e) => e.name), batches.entries.map((e) => e.name)]).toEqual([
        ["a.ts"],
        ["a.ts"],
      ]);
    });
  },
);
