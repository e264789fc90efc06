import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_GIT_ENTRIES } from "../../src/gather/git/_links.js";
import { locateRepository } from "../../src/gather/git/_repository.js";
import { tempDir } from "../api/_helpers.js";

// Before git runs, the repository's own files are checked for a way out of
// the project: links among its refs, objects/info/alternates followed as git
// follows them, the repository around a submodule. A repository can make
// that check itself the attack: 1,000 folders inside the project, each with
// an alternates file naming all 1,000 (16 KiB, the cap), is a million path
// resolutions: 31 s of work after a 5 s render returned (the CLI overran its
// deadline by 1.5 s, a long-lived host worked on for half a minute). One
// budget of MAX_GIT_ENTRIES covers every entry and alternate line of a look.

/** `count` object folders under `cwd`, each one's alternates naming them all, and `.git`'s naming them too. */
function alternatesFan(cwd: string, count: number): void {
  const lines = Array.from({ length: count }, (_, i) => `../../o${i}/objects\n`).join("");
  for (const at of [...Array.from({ length: count }, (_, i) => join(cwd, `o${i}`)), cwd]) {
    const info = join(at, at === cwd ? ".git" : "", "objects", "info");
    mkdirSync(info, { recursive: true });
    writeFileSync(join(info, "alternates"), lines);
  }
  for (const name of ["refs", "refs/heads"])
    mkdirSync(join(cwd, ".git", name), { recursive: true });
  writeFileSync(join(cwd, ".git", "HEAD"), "ref: refs/heads/main\n");
}

describe("hostile repository: the git folder check has one budget", () => {
  it("alternates files that name each other fan out to no more than MAX_GIT_ENTRIES lookups", async () => {
    const cwd = join(tempDir(), "project");
    // 110 x 110 lines: 12,100 alternate lines inside the project, past the budget of 10,000.
    alternatesFan(cwd, 110);
    expect(110 * 110).toBeGreaterThan(MAX_GIT_ENTRIES);
    const located = await locateRepository(cwd, { allowed: [] });
    expect(located).toEqual({
      kind: "refused",
      diagnostic: {
        level: "warning",
        code: "git-refused",
        message: `the repository's git files (refs, top-level files, alternates, the repositories around a submodule) are more than ${MAX_GIT_ENTRIES} entries, too many to check for links leading out of it (git pack-refs --all packs loose refs into one file); the git section is left out`,
        path: expect.stringMatching(/\/objects\/info\/alternates$/),
      },
    });
  });

  it("a few alternates inside the project are still followed and allowed", async () => {
    const cwd = join(tempDir(), "project");
    alternatesFan(cwd, 20);
    const located = await locateRepository(cwd, { allowed: [] });
    expect(located.kind).toBe("found");
  });
});
