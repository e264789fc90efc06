import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { PreparedPrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";
import { startServe } from "./_serve.js";

/** Each render's `prepared.origins`, as the inspector's source received it. */
const seen: PreparedPrompt["origins"][] = [];

vi.mock("../../src/author/watch/watch.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/author/watch/watch.js")>();
  return {
    ...real,
    watchPrompt: (...[options, hooks, givenBy]: Parameters<typeof real.watchPrompt>) =>
      real.watchPrompt(
        options,
        {
          ...hooks,
          onRender: (render) => {
            seen.push(render.prepared.origins);
            hooks.onRender(render);
          },
        },
        givenBy,
      ),
  };
});

describe("sysprompt serve", () => {
  it("records options given on its command line as given by the CLI, as render and watch do", async () => {
    const root = tempDir();
    for (const dir of ["project", "agent", "home"]) mkdirSync(join(root, dir), { recursive: true });
    const served = await startServe(root, ["--tools", "read", "--model", "m-1"]);
    const { code } = await served.stop();
    expect(code).toBe(0);
    expect(seen.length).toBeGreaterThan(0);
    expect([seen[0]?.tools, seen[0]?.model, seen[0]?.now]).toEqual([
      { source: "cli" },
      { source: "cli" },
      { source: "cli" },
    ]);
  });
});
