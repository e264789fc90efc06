import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { WatchRender } from "../../src/author/types.js";
import { watchPrompt } from "../../src/author/watch/watch.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { until } from "../author/_until.js";

const stops: AbortController[] = [];
afterEach(() => {
  for (const c of stops.splice(0)) c.abort();
});

// A config file sits in a layer folder, which watch watches whole: writing,
// changing or removing sysprompt.yaml re-renders with its values.
describe("watch and sysprompt.yaml", { timeout: 30_000 }, () => {
  it("re-renders when the user's or the project's file appears or changes", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project", ".pi", "sections"), { recursive: true });
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(
      join(root, "project", ".pi", "sections", "team.md"),
      "---\norder: 75\ntag: false\n---\nTeam {{vars.team}}.\n",
    );
    const controller = new AbortController();
    stops.push(controller);
    const renders: WatchRender[] = [];
    const done = watchPrompt(pinned(root, { configFiles: true }), {
      signal: controller.signal,
      onRender: (r) => renders.push(r),
    });
    const team = () =>
      renders[renders.length - 1]?.result.sections.find((s) => s.name === "team")?.text;
    await until(() => renders.length === 1, "the first render");
    expect(team()).toBe("Team .");
    writeFileSync(join(root, "project", ".pi", "sysprompt.yaml"), "vars:\n  team: project\n");
    await until(() => team() === "Team project.", "the project's file");
    // Your file's variable then wins: a project's file may add variables, not rewrite yours.
    writeFileSync(join(root, "agent", "sysprompt.yaml"), "vars:\n  team: user\n");
    await until(() => team() === "Team user.", "the user's file");
    controller.abort();
    await done;
  });
});
