import type * as fs from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WatchRender } from "../../src/author/types.js";
import { watchPrompt } from "../../src/author/watch/watch.js";
import { copyScenario, pinned } from "../api/_helpers.js";
import { until } from "./_until.js";

// The user's inotify watches are shared by every program; when they are used
// up, fs.watch fails with ENOSPC. That folder is then not watched, and the
// render says so, instead of the folder dropping out in silence.

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  return {
    ...real,
    watch: ((path: fs.PathLike, ...rest: unknown[]) => {
      if (String(path).endsWith(`${"/"}sections`) && String(path).includes("project")) {
        const error = new Error(
          `ENOSPC: System limit for number of file watchers reached, watch '${String(path)}'`,
        ) as NodeJS.ErrnoException;
        error.code = "ENOSPC";
        throw error;
      }
      return (real.watch as (...a: unknown[]) => fs.FSWatcher)(path, ...rest);
    }) as typeof fs.watch,
  };
});

const stops: AbortController[] = [];
afterEach(() => {
  for (const c of stops.splice(0)) c.abort();
});

describe("watchPrompt when the system refuses a watch", { timeout: 30_000 }, () => {
  it("a folder it cannot watch (ENOSPC) is a watch-refused warning naming the folder and the fix", async () => {
    const root = copyScenario("watch", "edit-break-fix");
    const sections = join(root, "project", ".pi", "sections");
    const controller = new AbortController();
    stops.push(controller);
    const renders: WatchRender[] = [];
    const done = watchPrompt(pinned(root), {
      signal: controller.signal,
      onRender: (r) => renders.push(r),
    });
    await until(() => renders.length === 1, "the first render");
    const first = renders[0] as WatchRender;
    expect(first.watching).not.toContain(sections);
    expect(first.diagnostics.filter((d) => d.code === "watch-refused")).toEqual([
      {
        level: "warning",
        code: "watch-refused",
        message: `cannot watch this folder (ENOSPC: System limit for number of file watchers reached, watch '${sections}'); the user's inotify watches are used up (raise fs.inotify.max_user_watches, or close other watchers); changes in it are not seen`,
        path: sections,
      },
    ]);
    controller.abort();
    await done;
  });
});
