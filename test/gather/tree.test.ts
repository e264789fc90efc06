import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatSize, formatTime } from "../../src/gather/tree/_tree-layout.js";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { SyspromptError } from "../../src/types.js";
import { tempDir } from "../api/_helpers.js";
import { at, makeTree, manyFiles, type Spec } from "./_tree.js";

/** A fresh `<tmp>/project` built from `spec`: the root line always reads `project/`. */
function project(spec: Record<string, Spec>): string {
  return makeTree(join(tempDir(), "project"), spec);
}

const lines = (...xs: string[]) => xs.join("\n");

/** The `lines` a tree has beside its text: each line with its depth (two spaces a level; the root and the closing marker 0). */
const withDepth = (rendered: string) =>
  rendered
    .split("\n")
    .map((text) => ({ depth: (text.length - text.trimStart().length) / 2, text }));

describe("buildWorkspaceTree: entries", () => {
  it("newest first, ties by name; folders end in /; files show a compact size; every entry its UTC minute", async () => {
    const root = project({
      "docs/": { at: "2026-01-09 00:00" },
      "src/": { at: "2026-01-10 09:00" },
      "src/index.ts": { at: "2026-01-10 08:00", size: 1536 },
      "src/util.ts": { at: "2026-01-10 08:30", size: 512 },
      "README.md": { at: "2026-01-12 12:00", size: 2_411_725 },
      "b.txt": { at: "2026-01-11 00:00", size: 0 },
      "a.txt": { at: "2026-01-11 00:00", size: 10 },
    });
    const tree = await buildWorkspaceTree(root);
    expect(tree.lines).toEqual(withDepth(tree.rendered));
    expect({ ...tree, lines: [] }).toEqual({
      lines: [],
      rendered: lines(
        "project/",
        "  README.md  2.3MB  2026-01-12 12:00",
        "  a.txt  10B  2026-01-11 00:00",
        "  b.txt  0B  2026-01-11 00:00",
        "  src/  2026-01-10 09:00",
        "    util.ts  512B  2026-01-10 08:30",
        "    index.ts  1.5KB  2026-01-10 08:00",
        "  docs/  2026-01-09 00:00",
      ),
      truncated: false,
      agentsMd: [],
      agentsMdOmitted: 0,
      unreadable: [],
    });
  });

  it("shows three levels by default; a folder at the last level is listed, not opened", async () => {
    const root = project({
      "a/b/c/d/deep.txt": { at: "2026-01-01 00:00", size: 1 },
      "a/b/c/": { at: "2026-01-02 00:00" },
      "a/b/": { at: "2026-01-03 00:00" },
      "a/": { at: "2026-01-04 00:00" },
    });
    expect((await buildWorkspaceTree(root)).rendered).toEqual(
      lines(
        "project/",
        "  a/  2026-01-04 00:00",
        "    b/  2026-01-03 00:00",
        "      c/  2026-01-02 00:00",
      ),
    );
    expect((await buildWorkspaceTree(root, { maxDepth: 1 })).rendered).toEqual(
      lines("project/", "  a/  2026-01-04 00:00"),
    );
  });

  it("a folder over the entry limit shows its newest N-1, '… K more', then its oldest", async () => {
    const root = project({ ...manyFiles("many", 15), "many/": { at: "2026-02-01 00:00" } });
    const tree = await buildWorkspaceTree(root);
    expect(tree.lines).toEqual(withDepth(tree.rendered));
    expect({ ...tree, lines: [] }).toEqual({
      lines: [],
      rendered: lines(
        "project/",
        "  many/  2026-02-01 00:00",
        "    f14.txt  1B  2026-01-01 00:14",
        "    f13.txt  1B  2026-01-01 00:13",
        "    f12.txt  1B  2026-01-01 00:12",
        "    f11.txt  1B  2026-01-01 00:11",
        "    f10.txt  1B  2026-01-01 00:10",
        "    f09.txt  1B  2026-01-01 00:09",
        "    f08.txt  1B  2026-01-01 00:08",
        "    f07.txt  1B  2026-01-01 00:07",
        "    f06.txt  1B  2026-01-01 00:06",
        "    f05.txt  1B  2026-01-01 00:05",
        "    f04.txt  1B  2026-01-01 00:04",
        "    … 3 more",
        "    f00.txt  1B  2026-01-01 00:00",
      ),
      // Entries elided in a folder are entries left out: the prompt says to drill in.
      truncated: true,
      agentsMd: [],
      agentsMdOmitted: 0,
      unreadable: [],
    });
    expect((await buildWorkspaceTree(root, { maxEntries: 3 })).rendered).toEqual(
      lines(
        "project/",
        "  many/  2026-02-01 00:00",
        "    f14.txt  1B  2026-01-01 00:14",
        "    f13.txt  1B  2026-01-01 00:13",
        "    … 12 more",
        "    f00.txt  1B  2026-01-01 00:00",
      ),
    );
    // Exactly at the limit: all shown, no marker.
    const twelve = project(manyFiles("d", 12));
    expect((await buildWorkspaceTree(twelve)).rendered.split("\n")).toHaveLength(14);
  });

  it("symlinks show their target and are never followed, not even into a folder or a loop", async () => {
    const root = project({
      "real/inner.txt": { at: "2026-01-01 00:00", size: 3 },
      "real/": { at: "2026-01-02 00:00" },
      linked: { at: "2026-01-03 00:00", link: "real" },
      loop: { at: "2026-01-04 00:00", link: "." },
      dangling: { at: "2026-01-05 00:00", link: "nowhere" },
    });
    expect((await buildWorkspaceTree(root)).rendered).toEqual(
      lines(
        "project/",
        "  dangling -> nowhere  2026-01-05 00:00",
        "  loop -> .  2026-01-04 00:00",
        "  linked -> real  2026-01-03 00:00",
        "  real/  2026-01-02 00:00",
        "    inner.txt  3B  2026-01-01 00:00",
      ),
    );
  });

  it("a FIFO is listed (no size) and never opened", async () => {
    const root = project({ "a.txt": { at: "2026-01-01 00:00", size: 1 } });
    execFileSync("mkfifo", [join(root, "pipe")]);
    utimesSync(join(root, "pipe"), at("2026-01-02 00:00"), at("2026-01-02 00:00"));
    expect((await buildWorkspaceTree(root)).rendered).toEqual(
      lines("project/", "  pipe  2026-01-02 00:00", "  a.txt  1B  2026-01-01 00:00"),
    );
  });

  it("a name with a line break or control character cannot forge a line, nor its columns", async () => {
    const root = project({
      "evil\n  fake.txt  1B  2026-01-01 00:00\u2028x": { at: "2026-01-01 00:00" },
    });
    expect((await buildWorkspaceTree(root)).rendered).toEqual(
      lines(
        "project/",
        "  evil\\u000a\\u0020\\u0020fake.txt\\u0020\\u00201B\\u0020\\u00202026-01-01 00:00\\u2028x  0B  2026-01-01 00:00",
      ),
    );
  });
});

describe("buildWorkspaceTree: the line cap", () => {
  // root, a/, a/sub/, a/sub/s2, a/sub/s1, a/a1, b/, b/b2, b/b1, c.txt: 10 lines uncapped.
  const spec: Record<string, Spec> = {
    "a/": { at: "2026-01-09 00:00" },
    "a/sub/": { at: "2026-01-08 00:00" },
    "a/sub/s2": { at: "2026-01-07 02:00", size: 2 },
    "a/sub/s1": { at: "2026-01-07 01:00", size: 1 },
    "a/a1": { at: "2026-01-07 00:00", size: 1 },
    "b/": { at: "2026-01-06 00:00" },
    "b/b2": { at: "2026-01-05 02:00", size: 2 },
    "b/b1": { at: "2026-01-05 01:00", size: 1 },
    "c.txt": { at: "2026-01-04 00:00", size: 1 },
  };
  const all = [
    "project/",
    "  a/  2026-01-09 00:00",
    "    sub/  2026-01-08 00:00",
    "      s2  2B  2026-01-07 02:00",
    "      s1  1B  2026-01-07 01:00",
    "    a1  1B  2026-01-07 00:00",
    "  b/  2026-01-06 00:00",
    "    b2  2B  2026-01-05 02:00",
    "    b1  1B  2026-01-05 01:00",
    "  c.txt  1B  2026-01-04 00:00",
  ];
  const MARKER = "… deeper entries not shown (line limit)";
  const pick = (...indexes: number[]) => lines(...indexes.map((i) => all[i] ?? "?"), MARKER);

  it.each([
    [10, { rendered: lines(...all), truncated: false }],
    // The deepest lines go first, the latest of equally deep ones first…
    [9, { rendered: pick(0, 1, 2, 5, 6, 7, 8, 9), truncated: true }],
    [8, { rendered: pick(0, 1, 2, 5, 6, 7, 9), truncated: true }],
    [7, { rendered: pick(0, 1, 2, 5, 6, 9), truncated: true }],
    [6, { rendered: pick(0, 1, 2, 6, 9), truncated: true }],
    // …and the root and depth-1 lines stay even when they alone exceed the cap.
    [2, { rendered: pick(0, 1, 6, 9), truncated: true }],
  ])("maxLines %i", async (maxLines, expected) => {
    const root = project(spec);
    expect(await buildWorkspaceTree(root, { maxLines })).toEqual({
      ...expected,
      lines: withDepth(expected.rendered),
      agentsMd: [],
      agentsMdOmitted: 0,
      unreadable: [],
    });
  });

  it("120 lines by default", async () => {
    const spec: Record<string, Spec> = {};
    for (let i = 0; i < 12; i++) Object.assign(spec, manyFiles(`d${i}`, 12));
    const result = await buildWorkspaceTree(project(spec));
    // 1 root + 12 folders + 144 files uncapped; 119 kept lines + the marker.
    expect([result.rendered.split("\n").length, result.truncated]).toEqual([120, true]);
    expect(result.rendered.split("\n").at(-1)).toEqual(MARKER);
  });
});

describe("buildWorkspaceTree: what is skipped", () => {
  it("hidden entries and node_modules, at any depth", async () => {
    const root = project({
      ".env": { at: "2026-01-01 00:00", size: 1 },
      ".github/workflows/ci.yml": { at: "2026-01-01 00:00", size: 1 },
      "node_modules/x/index.js": { at: "2026-01-01 00:00", size: 1 },
      "src/node_modules/y.js": { at: "2026-01-01 00:00", size: 1 },
      "src/.cache/z": { at: "2026-01-01 00:00", size: 1 },
      "src/main.ts": { at: "2026-01-01 00:00", size: 1 },
      "src/": { at: "2026-01-02 00:00" },
    });
    expect((await buildWorkspaceTree(root)).rendered).toEqual(
      lines("project/", "  src/  2026-01-02 00:00", "    main.ts  1B  2026-01-01 00:00"),
    );
  });

  it("what the root and nested .gitignore files ignore, with git's precedence and negation", async () => {
    const t = "2026-01-01 00:00";
    const root = project({
      ".gitignore": { at: t, text: "*.log\n!keep.log\nbuild/\n/root-only.txt\n" },
      "app.log": { at: "2026-01-01 00:09", size: 1 },
      "keep.log": { at: "2026-01-01 00:08", size: 1 },
      "build/out.js": { at: t, size: 1 },
      "root-only.txt": { at: t, size: 1 },
      "pkg/": { at: "2026-01-01 00:07" },
      "pkg/.gitignore": { at: t, text: "!special.log\ngen/\n" },
      "pkg/special.log": { at: "2026-01-01 00:06", size: 1 },
      "pkg/other.log": { at: t, size: 1 },
      "pkg/gen/a.ts": { at: t, size: 1 },
      "pkg/root-only.txt": { at: "2026-01-01 00:05", size: 1 },
      "pkg/build/x.js": { at: t, size: 1 },
    });
    const expected = lines(
      "project/",
      "  keep.log  1B  2026-01-01 00:08",
      "  pkg/  2026-01-01 00:07",
      "    special.log  1B  2026-01-01 00:06",
      "    root-only.txt  1B  2026-01-01 00:05",
    );
    expect((await buildWorkspaceTree(root)).rendered).toEqual(expected);
    // git itself agrees on every file shown (its global config kept out of it).
    const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
    execFileSync("git", ["init", "-q"], { cwd: root, env });
    const listed = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], {
      cwd: root,
      env,
      encoding: "utf8",
    });
    expect(
      listed.split("\n").filter((p) => p !== "" && !p.split("/").some((c) => c.startsWith("."))),
    ).toEqual(["keep.log", "pkg/root-only.txt", "pkg/special.log"]);
  });

  it("a folder inside a repository also obeys the .gitignore files above it and .git/info/exclude", async () => {
    const repo = tempDir();
    const t = "2026-01-01 00:00";
    makeTree(repo, {
      // A git folder as git tells one (HEAD, objects/, refs/): a bare `.git` is no repository to git.
      ".git/HEAD": { at: t, text: "ref: refs/heads/main\n" },
      ".git/objects/": { at: t },
      ".git/refs/": { at: t },
      ".git/info/exclude": { at: t, text: "secret/\n" },
      ".gitignore": { at: t, text: "*.gen\n" },
      "pkg/.gitignore": { at: t, text: "/app/drop.txt\n" },
      "pkg/app/x.gen": { at: t, size: 1 },
      "pkg/app/secret/s.txt": { at: t, size: 1 },
      "pkg/app/drop.txt": { at: t, size: 1 },
      "pkg/app/keep.txt": { at: t, size: 1 },
      "pkg/app/sub/drop.txt": { at: t, size: 1 },
      "pkg/app/sub/": { at: "2026-01-02 00:00" },
    });
    expect((await buildWorkspaceTree(join(repo, "pkg", "app"))).rendered).toEqual(
      lines(
        "app/",
        "  sub/  2026-01-02 00:00",
        "    drop.txt  1B  2026-01-01 00:00",
        "  keep.txt  1B  2026-01-01 00:00",
      ),
    );
  });

  it.each([
    [
      "a link to another repository's .git",
      (repo: string, other: string) => symlinkSync(join(other, ".git"), join(repo, ".git")),
    ],
    [
      "a .git folder whose info is a link",
      (repo: string, other: string) => {
        mkdirSync(join(repo, ".git"));
        symlinkSync(join(other, ".git", "info"), join(repo, ".git", "info"));
      },
    ],
    [
      "a .git folder whose info/exclude is a link",
      (repo: string, other: string) => {
        mkdirSync(join(repo, ".git", "info"), { recursive: true });
        symlinkSync(join(other, ".git", "info", "exclude"), join(repo, ".git", "info", "exclude"));
      },
    ],
    [
      "a .git file naming another folder",
      (repo: string, other: string) =>
        writeFileSync(join(repo, ".git"), `gitdir: ${join(other, ".git")}\n`),
    ],
  ])("takes no exclude patterns through %s", async (_what, plant) => {
    const other = tempDir();
    mkdirSync(join(other, ".git", "info"), { recursive: true });
    writeFileSync(join(other, ".git", "info", "exclude"), "*.txt\n");
    const repo = tempDir();
    makeTree(repo, { "keep.txt": { at: "2026-01-01 00:00", size: 1 } });
    plant(repo, other);
    expect((await buildWorkspaceTree(repo)).rendered).toContain("keep.txt");
  });

  it("a root inside a folder the repository ignores still lists its files, by its own rules", async () => {
    const repo = tempDir();
    const t = "2026-01-01 00:00";
    makeTree(repo, {
      ".git/HEAD": { at: t, text: "ref: refs/heads/main\n" },
      ".gitignore": { at: t, text: "scratch/\n*.log\n" },
      "scratch/proj/.gitignore": { at: t, text: "out/\n" },
      "scratch/proj/a.log": { at: t, size: 1 },
      "scratch/proj/out/x.js": { at: t, size: 1 },
    });
    expect((await buildWorkspaceTree(join(repo, "scratch", "proj"))).rendered).toEqual(
      lines("proj/", "  a.log  1B  2026-01-01 00:00"),
    );
  });
});

describe("buildWorkspaceTree: agentsMd", () => {
  it("AGENTS.md regular files (or links to one) in folders 1-4 deep, not ignored, hidden or in node_modules, sorted", async () => {
    const t = "2026-01-01 00:00";
    const root = project({
      ".gitignore": { at: t, text: "ignored/\nq/**/AGENTS.md\n" },
      "AGENTS.md": { at: t, text: "root: a context file already" },
      "b/AGENTS.md": { at: t, text: "depth 2" },
      "a/x/AGENTS.md": { at: t, text: "depth 3" },
      "a/x/y/AGENTS.md": { at: t, text: "depth 4" },
      "a/x/y/z/AGENTS.md": { at: t, text: "depth 5: a folder 4 deep, as oh-my-pi lists" },
      "a/x/y/z/w/AGENTS.md": { at: t, text: "depth 6: too deep" },
      "c/d/e/f/.ignore": { at: t, text: "AGENTS.md\n" },
      "c/d/e/f/AGENTS.md": { at: t, text: "hidden by a .ignore at the last level" },
      "c/d/e/.gitignore": { at: t, text: "AGENTS.md\n" },
      "c/d/e/AGENTS.md": { at: t, text: "ignored by its own folder" },
      "q/r/s/.gitignore": { at: t, text: "!AGENTS.md\n" },
      "q/r/s/AGENTS.md": { at: t, text: "ignored above, re-included here" },
      "q/r/AGENTS.md": { at: t, text: "ignored" },
      "ignored/AGENTS.md": { at: t, text: "ignored" },
      ".hidden/AGENTS.md": { at: t, text: "hidden" },
      "node_modules/p/AGENTS.md": { at: t, text: "dependency" },
      "dir/AGENTS.md/": { at: t },
      "shared.md": { at: t, text: "shared" },
      "l/AGENTS.md": { at: t, link: "../shared.md" },
      "s/t/u/AGENTS.md": { at: t, link: "../../../shared.md" },
      "s/t/v/AGENTS.md": { at: t, link: "../../.." },
      "broken/AGENTS.md": { at: t, link: "missing.md" },
      "real/AGENTS.md": { at: t, text: "real" },
      linked: { at: t, link: "real" },
    });
    mkdirSync(join(root, "fifo", "deeper"), { recursive: true });
    execFileSync("mkfifo", [join(root, "fifo", "AGENTS.md")]);
    execFileSync("mkfifo", [join(root, "fifo", "deeper", "AGENTS.md")]);
    expect((await buildWorkspaceTree(root)).agentsMd).toEqual([
      "a/x/AGENTS.md",
      "a/x/y/AGENTS.md",
      "a/x/y/z/AGENTS.md",
      "b/AGENTS.md",
      "l/AGENTS.md",
      "q/r/s/AGENTS.md",
      "real/AGENTS.md",
      // s/t/u/AGENTS.md links to the same file as l/AGENTS.md: named once, at the shallower folder.
    ]);
  });

  it("at most 200: the shallowest, then by path", async () => {
    const root = join(tempDir(), "project");
    for (let i = 0; i < 195; i++) {
      const dir = join(root, `d${String(i).padStart(3, "0")}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "AGENTS.md"), "x");
    }
    for (let i = 9; i >= 0; i--) {
      mkdirSync(join(root, `e${i}`, "s"), { recursive: true });
      writeFileSync(join(root, `e${i}`, "s", "AGENTS.md"), "x");
    }
    const { agentsMd, agentsMdOmitted } = await buildWorkspaceTree(root);
    expect(agentsMd).toEqual([
      ...Array.from({ length: 195 }, (_, i) => `d${String(i).padStart(3, "0")}/AGENTS.md`),
      ...[0, 1, 2, 3, 4].map((i) => `e${i}/s/AGENTS.md`),
    ]);
    // e5/s … e9/s are not listed: the prompt and a diagnostic say so.
    expect(agentsMdOmitted).toBe(5);
  });
});

describe("buildWorkspaceTree: contract", () => {
  it("is deterministic: the same files give the same bytes, in any temp folder, run after run", async () => {
    const spec: Record<string, Spec> = {
      ...manyFiles("a", 20),
      ...manyFiles("b/c", 5, "2025-06-01 00:00"),
      "b/AGENTS.md": { at: "2025-01-01 00:00", size: 4 },
      "z.txt": { at: "2026-01-01 00:05", size: 4 },
    };
    const first = await buildWorkspaceTree(project(spec));
    const otherRoot = project(spec);
    expect(await buildWorkspaceTree(otherRoot)).toEqual(first);
    expect(await buildWorkspaceTree(otherRoot)).toEqual(first);
    expect(first.agentsMd).toEqual(["b/AGENTS.md"]);
  });

  it("a root that is not a folder and a limit that is not a positive integer are the caller's errors", async () => {
    const root = project({ "f.txt": { at: "2026-01-01 00:00" } });
    await expect(buildWorkspaceTree(join(root, "missing"))).rejects.toThrow(SyspromptError);
    await expect(buildWorkspaceTree(join(root, "f.txt"))).rejects.toThrow(
      `buildWorkspaceTree: ${join(root, "f.txt")} is not a folder`,
    );
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      await expect(buildWorkspaceTree(root, { maxDepth: bad })).rejects.toThrow(
        `buildWorkspaceTree: maxDepth must be a positive integer, got ${bad}`,
      );
    }
  });

  it("an aborted signal stops the work with the signal's reason", async () => {
    const root = project({ "f.txt": { at: "2026-01-01 00:00" } });
    const reason = new Error("late");
    await expect(buildWorkspaceTree(root, { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
  });
});

describe("formatSize and formatTime", () => {
  it.each([
    [0, "0B"],
    [512, "512B"],
    [1023, "1023B"],
    [1024, "1KB"],
    [1536, "1.5KB"],
    [10 * 1024 + 600, "11KB"],
    [1024 * 1024 - 1, "1MB"],
    [2_411_725, "2.3MB"],
    [5 * 1024 ** 3, "5GB"],
    [3 * 1024 ** 4, "3TB"],
  ])("%i bytes → %s", (bytes, text) => {
    expect(formatSize(bytes)).toEqual(text);
  });

  it("absolute UTC minutes, never relative", () => {
    expect(formatTime(at("2026-03-04 05:06") * 1000 + 59_999)).toEqual("2026-03-04 05:06");
    expect(formatTime(0)).toEqual("1970-01-01 00:00");
  });
});
