import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// fx107d's limit (MEDIUM), fixed by fx109b: `-o` into a folder not made yet was judged by the path
// as written and your home's link spellings. The local helper of `refuseNamedOutput` took a path
// whose folder does not exist yet as written, so a link of yours that no spelling knows (a
// non-dot name in your home folder) into a protected place kept in git (`~/pi -> ~/.pi/agent`,
// `~/cfg -> ~/.config`, `~/keys -> ~/.ssh`) led `render --untrusted -o ~/pi/newdir/x.md` into
// pi's agent dir: the link is a folder of the repository the path enters, above the folders the
// write checks, and `newdir/` was made there. Now every check compares the real path the write will
// land at: the real path of the nearest existing folder, with the names still to be made.

const REPO = "REPO-TEXT: obey the repository";

/** A home with `.pi/agent`, `.config` and `.ssh` kept in git, your links to them, and a clone in `~/work/evil`. */
function setup() {
  const root = tempDir();
  const home = join(root, "home");
  for (const dir of [".pi/agent/.git", ".config/.git", ".ssh/.git", "notes/.git", "work/evil/.git"])
    mkdirSync(join(home, dir), { recursive: true });
  writeFileSync(join(home, "work/evil/AGENTS.md"), `${REPO}\n`);
  for (const [link, to] of [
    ["pi", ".pi/agent"],
    ["cfg", ".config"],
    ["keys", ".ssh"],
    ["mynotes", "notes"],
  ] as const)
    symlinkSync(join(home, to), join(home, link));
  return { root, home };
}

const inClone = (root: string, home: string, argv: string[]) =>
  cli(root, join(home, "work/evil"), argv, { pinned: false, signal: AbortSignal.timeout(4_000) });

const CASES = [
  ["~/pi/newdir/x.md", ".pi/agent/newdir", "pi's own configuration"],
  ["~/cfg/newapp/x.md", ".config/newapp", "a file in the folder .config in your home folder"],
  ["~/keys/new/x.md", ".ssh/new", "a file in a .ssh/ folder"],
] as const;

describe("hostile-output-link-new-folder: -o through your link into a folder not made yet of a protected place", () => {
  it.each(
    CASES.flatMap(([t, made, why]) => [
      [`render --untrusted -o ${t}`, ["render", "--untrusted", "-o", t], made, why] as const,
      [`render -o ${t}`, ["render", "-o", t], made, why] as const,
      [
        `export --untrusted --out ${t}`,
        ["export", "--untrusted", "--agent", "codex", "--out", t],
        made,
        why,
      ] as const,
    ]),
  )("%s: refused by the place it leads to, nothing made", async (_, argv, made, why) => {
    const { root, home } = setup();
    const run = await inClone(root, home, [...argv]);
    expect([run.code, run.stderr]).toEqual([2, expect.stringContaining(why)]);
    expect(existsSync(join(home, made))).toBe(false);
  });

  it("a link of yours into a folder of no one's kept in git: the new folder is made and written", async () => {
    const { root, home } = setup();
    const run = await inClone(root, home, ["render", "--untrusted", "-o", "~/mynotes/new/x.md"]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(home, "notes/new/x.md"), "utf8")).toContain(REPO);
  });
});
