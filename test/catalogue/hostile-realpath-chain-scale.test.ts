import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { realpath } from "../../src/_io.js";
import { locateRepository } from "../../src/gather/git/_repository.js";
import { resolved } from "../../src/hook/fast.js";
import { timed } from "../gather/_timed.js";

// Every check of where a repository's file really is asks realpath, and
// glibc's realpath asks the kernel about each component of the path in turn,
// each time walking it from the start, and starts over after each link. A
// repository controls both: a link to a link to … (38, under the kernel's 40)
// each naming a path 1,000 folders deep cost one call 4 s at a load of 5
// (9 s at 1,900 deep), synchronously, on the main thread: a `.git` that is
// such a link made `render --git --deadline 1000` return after 6.9 s, and the
// hook, the door and every confinement check paid the same for each such
// link. A realpath is now one open (O_PATH) read back from /proc/self/fd: one
// walk of each target, as the kernel makes for any open.

vi.setConfig({ testTimeout: 60_000 });

const DEPTH = 1_000;
const CHAIN = 38;
/** What one resolution may take on a loaded machine; the native call took seconds. */
const BOUND_MS = 1_000;

let base = "";
let project = "";
let deep = "";

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "sysprompt-realpath-chain-")));
  project = join(base, "project");
  mkdirSync(project);
  execFileSync("git", ["init", "-q"], { cwd: project });
  deep = join(project, ...Array.from({ length: DEPTH }, () => "d"));
  mkdirSync(deep, { recursive: true });
  // The repository's own git folder, deep inside it; `.git` reaches it through the chain.
  renameSync(join(project, ".git"), join(deep, "g"));
  for (let i = 0; i < CHAIN; i++) {
    symlinkSync(join(deep, i === CHAIN - 1 ? "g" : `l${i + 1}`), join(deep, `l${i}`));
  }
  symlinkSync(join(deep, "l0"), join(project, ".git"));
  writeFileSync(join(deep, "g", "AGENTS.md"), "x\n");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("hostile repository: a link to a link to … of deep paths", () => {
  it("resolves in one walk, to the same path", async () => {
    const { value, ms } = await timed(() => realpath(join(project, ".git")));
    expect(value).toBe(join(deep, "g"));
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("fails as realpath does: a loop is ELOOP, a missing target ENOENT", async () => {
    symlinkSync("loop", join(base, "loop"));
    symlinkSync(join(base, "nowhere"), join(base, "dangling"));
    await expect(realpath(join(base, "loop"))).rejects.toMatchObject({ code: "ELOOP" });
    await expect(realpath(join(base, "dangling"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("the git section finds the repository behind it in time", async () => {
    const { value, ms } = await timed(() => locateRepository(project, { allowed: [] }));
    expect(value).toMatchObject({ kind: "found", repository: { gitDir: join(deep, "g") } });
    expect(ms).toBeLessThan(2 * BOUND_MS);
  });

  it("the hook resolves a touched path through it in time", async () => {
    const { value, ms } = await timed(() => resolved(join(project, ".git", "AGENTS.md")));
    expect(value).toEqual({ real: join(deep, "g", "AGENTS.md"), isDir: false });
    expect(ms).toBeLessThan(BOUND_MS);
  });
});
