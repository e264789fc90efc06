import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_DEADLINE_MS } from "../../src/gather/deadline.js";
import { loadPromptTemplatesSync } from "../../src/index.js";
import { MAX_PROMPT_ROOT_CHARS } from "../../src/prompt-templates/load.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { denseFile, denseParseMs } from "./_dense-yaml.js";

// loadPromptTemplatesSync (the library's twin for hosts that cannot await)
// parses every template of the user's and the project's prompts folders,
// each read to 8 MiB, in one synchronous loop: no signal can be heard in it.
// 8 MiB of templates of dense YAML frontmatter (see _dense-yaml.ts) parse
// for 30-60 s on a loaded 2-core machine (the review's attack14). The loop
// now stops at a render's default deadline, with a warning.

describe("hostile repository: the synchronous template loader in 16 MiB of dense frontmatter", () => {
  it("stops parsing at the default deadline, and says so", () => {
    const root = tempDir();
    const options = pinned(root);
    const text = (i: number) => denseFile(`description: p${i}\n`, `Prompt ${i} $1.`);
    const perRoot = Math.ceil(MAX_PROMPT_ROOT_CHARS / text(0).length) + 1;
    for (const dir of [join(root, "agent", "prompts"), join(root, "project", ".pi", "prompts")]) {
      mkdirSync(dir, { recursive: true });
      for (let i = 0; i < perRoot; i++) writeFileSync(join(dir, `p${i}.md`), text(i));
    }
    const parseMs = denseParseMs();
    // The premise: parsed whole, the two folders take twice the deadline.
    expect(parseMs * 2 * (perRoot - 1)).toBeGreaterThan(2 * DEFAULT_DEADLINE_MS);
    const started = performance.now();
    const loaded = loadPromptTemplatesSync(options);
    const took = performance.now() - started;
    expect(loaded.diagnostics.filter((d) => d.code === "load-deadline")).toEqual([
      {
        level: "warning",
        code: "load-deadline",
        message: `stopped reading the slash-command templates at the ${DEFAULT_DEADLINE_MS} ms deadline; the rest are left out`,
      },
    ]);
    expect(loaded.templates.length).toBeGreaterThan(0);
    expect(took).toBeLessThan(DEFAULT_DEADLINE_MS + 3 * parseMs + 2000);
  }, 240_000);
});
