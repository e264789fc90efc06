import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { WatchRender } from "../../src/author/types.js";
import {
  MAX_SKILL_WATCH_FOLDERS,
  skillWatchFolders,
} from "../../src/author/watch/_watch-folders.js";
import { watchPrompt } from "../../src/author/watch/watch.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { until } from "./_until.js";

// `watch` and the skill roots: one watch per folder (never one per file, never
// a recursive watch that takes one per entry), within a stated cap, with a
// warning when the cap is reached.

const stops: AbortController[] = [];
afterEach(() => {
  for (const c of stops.splice(0)) c.abort();
});

function skill(dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: The ${name} steps, for the watch tests.\n---\nDo it.\n`,
  );
}

describe("skillWatchFolders", () => {
  it("the root and its folders down to each skill; not a skill's own folders, dot-folders or node_modules", async () => {
    const root = tempDir();
    skill(join(root, "alpha"), "alpha");
    mkdirSync(join(root, "alpha", "references", "deep"), { recursive: true });
    skill(join(root, "group", "beta"), "beta");
    mkdirSync(join(root, ".hidden", "x"), { recursive: true });
    mkdirSync(join(root, "node_modules", "y"), { recursive: true });
    for (let i = 0; i < 50; i++) writeFileSync(join(root, "group", `file${i}.txt`), "x");
    expect(await skillWatchFolders([root])).toEqual({
      folders: [root, join(root, "alpha"), join(root, "group"), join(root, "group", "beta")],
      diagnostics: [],
    });
  });

  it("stops at the cap with a warning naming the root", async () => {
    const root = tempDir();
    for (let i = 0; i < 20; i++)
      mkdirSync(join(root, `d${String(i).padStart(2, "0")}`, "sub"), { recursive: true });
    const { folders, diagnostics } = await skillWatchFolders([root], 10);
    expect(folders.length).toBe(10);
    expect(diagnostics).toEqual([
      {
        level: "warning",
        code: "watch-cap",
        message:
          "watching 10 folders under the skill roots, the most watch does; changes in the other folders of this root are not seen until a change elsewhere re-renders",
        path: root,
      },
    ]);
  });
});

describe("watchPrompt and a large skills root", { timeout: 60_000 }, () => {
  it("watches at most MAX_SKILL_WATCH_FOLDERS folders of it, says so, and still sees a skill change", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const skills = join(project, ".agents", "skills");
    skill(join(skills, "aaa"), "aaa");
    // 600 folders of 20 files each: a recursive watch took a watch for each of the 12,600 entries.
    for (let i = 0; i < 600; i++) {
      const dir = join(skills, "zz-bulk", `f${String(i).padStart(3, "0")}`);
      mkdirSync(dir, { recursive: true });
      for (let j = 0; j < 20; j++) writeFileSync(join(dir, `${j}.txt`), "x");
    }
    mkdirSync(join(project, ".git"));
    const controller = new AbortController();
    stops.push(controller);
    const renders: WatchRender[] = [];
    const done = watchPrompt(pinned(root), {
      signal: controller.signal,
      onRender: (r) => renders.push(r),
    });
    await until(() => renders.length === 1, "the first render");
    const first = renders[0] as WatchRender;
    const underSkills = first.watching.filter((d) => d.startsWith(skills));
    expect(underSkills.length).toBe(MAX_SKILL_WATCH_FOLDERS);
    expect(first.diagnostics.filter((d) => d.code === "watch-cap")).toEqual([
      {
        level: "warning",
        code: "watch-cap",
        message: `watching ${MAX_SKILL_WATCH_FOLDERS} folders under the skill roots, the most watch does; changes in the other folders of this root are not seen until a change elsewhere re-renders`,
        path: skills,
      },
    ]);
    writeFileSync(
      join(skills, "aaa", "SKILL.md"),
      "---\nname: aaa\ndescription: Changed steps, seen by the folder watch.\n---\nDo it.\n",
    );
    await until(
      () => renders.some((r) => r.result.text.includes("Changed steps, seen by the folder watch.")),
      "the skill's change",
    );
    controller.abort();
    await done;
  });
});
