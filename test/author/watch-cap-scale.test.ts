import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { WatchRender } from "../../src/author/types.js";
import { MAX_SKILL_WATCH_FOLDERS } from "../../src/author/watch/_watch-folders.js";
import { watchPrompt } from "../../src/author/watch/watch.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { skill } from "./_skill.js";
import { until } from "./_until.js";

// The slow tier (a big tree): `watch` on a skills root of 12,600 entries takes one watch per
// folder up to the cap, says so, and still sees a change. watch-cap.test.ts has the cap's
// cases on small trees.

const stops: AbortController[] = [];
afterEach(() => {
  for (const c of stops.splice(0)) c.abort();
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
