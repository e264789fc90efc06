import { lchownSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { LINKS_FOLLOWED, NOBODY, put, sharedFolder } from "./_nobody.js";

// Another user's link in a folder anyone may write to, flipped while the door
// reads through it (review rev61c F3): `/W/AGENTS.md -> me/proj/.env` is there
// when the path is resolved, and gone (or a plain file) by the time the door
// looks at the path's entries. The race is played deterministically: the file
// system is wrapped so that the flip happens right after the look-up or the
// open of the armed path by the door. Before, the walk after the open took a vanished entry,
// or one that was no longer a link, as no link at all, and read your `.env`.

const MARK = "RACE-MARKER";

type Flip = () => void;
/** Armed flips: right after `realpath` of the key (`realpath:`) or `open` of it (`open:`); each fires once. */
const flips = vi.hoisted(() => new Map<string, () => void>());

/** Fires the flip armed for `key` when the door (not discovery before it) makes the call. */
function fire(key: string) {
  const flip = flips.get(key);
  if (flip === undefined || !new Error().stack?.includes("openChecked")) return;
  flips.delete(key);
  flip();
}

vi.mock("../../src/_io.js", async (importOriginal) => {
  const io = await importOriginal<typeof import("../../src/_io.js")>();
  const realpath = async (path: string) => {
    const real = await io.realpath(path);
    fire(`realpath:${path}`);
    return real;
  };
  const open = async (path: string, flags: number) => {
    const handle = await io.open(path, flags);
    fire(`open:${path}`);
    return handle;
  };
  return { ...io, realpath, open };
});

/** A 1777 folder with your plain folder `proj` (its `.env` a secret) and another user's link `AGENTS.md -> proj/.env`. */
function raceWorld(owner: number | undefined) {
  const root = tempDir();
  const shared = sharedFolder(root, "shared", 0o1777);
  const proj = join(shared, "proj");
  put(join(proj, "AGENTS.md"), "# mine\n");
  put(join(proj, ".env"), `API_KEY=${MARK}\n`);
  const link = join(shared, "AGENTS.md");
  symlinkSync("proj/.env", link);
  if (owner !== undefined) lchownSync(link, owner, owner);
  return { root, shared, proj, link, env: join(proj, ".env") };
}

const gone =
  (link: string): Flip =>
  () =>
    rmSync(link);
const decoy =
  (link: string): Flip =>
  () => {
    writeFileSync(`${link}.tmp`, "DECOY\n");
    renameSync(`${link}.tmp`, link);
  };

async function renderRaced(w: ReturnType<typeof raceWorld>, key: string, flip: Flip) {
  flips.clear();
  flips.set(key, flip);
  const result = await renderSystemPrompt(pinned(w.root, { cwd: w.proj }));
  expect(result.text).not.toContain(MARK);
  expect(result.text).toContain("# mine");
  return result.diagnostics.filter((d) => d.path === w.link).map((d) => d.code);
}

describe("catalogue: a link in a shared folder flipped while the door reads through it", () => {
  // Another user's link is refused by the walk before the open (it is still there then); the
  // flip after the open is what the walk after it used to miss.
  it.runIf(LINKS_FOLLOWED)(
    "door-shared-link-gone-after-open: another user's link removed after the open is refused (needs root and fs.protected_symlinks=0)",
    async () => {
      const w = raceWorld(NOBODY);
      expect(await renderRaced(w, `open:${w.env}`, gone(w.link))).toEqual(["file-foreign-owner"]);
    },
  );

  it.runIf(LINKS_FOLLOWED)(
    "door-shared-link-decoy-after-open: another user's link renamed over by a plain file after the open is refused (needs root and fs.protected_symlinks=0)",
    async () => {
      const w = raceWorld(NOBODY);
      expect(await renderRaced(w, `open:${w.env}`, decoy(w.link))).toEqual(["file-foreign-owner"]);
    },
  );

  it.runIf(LINKS_FOLLOWED)(
    "door-shared-link-gone-after-resolve: another user's link removed between its resolving and the walk is refused (needs root and fs.protected_symlinks=0)",
    async () => {
      const w = raceWorld(NOBODY);
      expect(await renderRaced(w, `realpath:${w.link}`, gone(w.link))).toEqual([
        "file-outside-project",
      ]);
    },
  );

  it.runIf(LINKS_FOLLOWED)(
    "door-shared-link-decoy-after-resolve: another user's link renamed over by a plain file before the walk is refused (needs root and fs.protected_symlinks=0)",
    async () => {
      const w = raceWorld(NOBODY);
      expect(await renderRaced(w, `realpath:${w.link}`, decoy(w.link))).toEqual([
        "file-outside-project",
      ]);
    },
  );

  // A link that passes the walk (yours: root's, here) and changes after the open: the way is asked again.
  for (const [name, flip] of [
    ["gone", gone],
    ["decoy", decoy],
  ] as const)
    it(`door-own-link-${name}-after-open: a link on the way that is ${name === "gone" ? "removed" : "renamed over"} after the open is refused, whoever owns it`, async () => {
      const w = raceWorld(undefined);
      expect(await renderRaced(w, `open:${w.env}`, flip(w.link))).toEqual(["file-outside-project"]);
    });
});
