import { createRequire } from "node:module";
import { sep } from "node:path";
import { describe, expect, it } from "vitest";
import { copyScenario, pinned, tempDir } from "./_helpers.js";

// The tokenizer takes about 200 ms to load, longer than a whole CLI render:
// only explain, and a render in which a section declares maxTokens, may load
// it. It is loaded with `require`, so Node's CommonJS module cache says
// whether it was. Vitest runs each test file in a fresh process, and the
// tests below run in order: nothing has loaded it before the first one.
const loaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((path) =>
    path.includes(`${sep}gpt-tokenizer${sep}`),
  );

describe("the tokenizer is not on the render path", () => {
  it("importing the package, rendering, and the CLI's render do not load it", async () => {
    expect(loaded()).toBe(false);
    const api = await import("../../src/index.js");
    await api.renderSystemPrompt(pinned(tempDir()));
    const { run } = await import("../../src/cli/main.js");
    const root = tempDir();
    const { cwd } = pinned(root);
    const io = { stdout: () => undefined, stderr: () => undefined, cwd: cwd ?? root, env: {} };
    expect(await run(["render", "--agent-dir", root, "--now", "2026-01-15"], io)).toBe(0);
    expect(await run(["sections", "--agent-dir", root, "--now", "2026-01-15"], io)).toBe(0);
    expect(loaded()).toBe(false);
  });

  it("a section that declares maxTokens loads it (so the test above can fail)", async () => {
    const { renderSystemPrompt } = await import("../../src/index.js");
    await renderSystemPrompt(pinned(copyScenario("explain", "max-tokens")));
    expect(loaded()).toBe(true);
  });
});
