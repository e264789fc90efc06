import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_TEXT_FILE_BYTES } from "../../src/_fs.js";
import {
  loadPromptTemplates,
  loadPromptTemplatesSync,
  MAX_PROMPT_ROOT_CHARS,
} from "../../src/prompt-templates/load.js";
import { tempDir } from "../api/_helpers.js";

// Every .md file of a prompts folder is read whole (up to 1 MiB) and kept as
// a template, and the folder may hold 1,000 of them: a trusted project's
// .pi/prompts of 999 links to one 1 MiB file (a repository of 1 MiB) held
// 2.1 GB and took sysprompt list 66 s, check 52 s and expand 47 s. A root's
// templates are read until they hold MAX_PROMPT_ROOT_CHARS together; the
// rest are not read, with one warning.

describe("hostile repository: prompt templates of many megabytes together", () => {
  it.each([
    ["async", loadPromptTemplates],
    [
      "sync",
      async (o: Parameters<typeof loadPromptTemplatesSync>[0]) => loadPromptTemplatesSync(o),
    ],
  ] as const)(
    "are read no further than the root's total (%s)",
    async (_how, load) => {
      const base = tempDir();
      const cwd = join(base, "repo");
      const prompts = join(cwd, ".pi", "prompts");
      mkdirSync(prompts, { recursive: true });
      mkdirSync(join(cwd, ".git"));
      const line = `${"x".repeat(1023)}\n`;
      const big = `---\ndescription: d\n---\n${line.repeat(MAX_TEXT_FILE_BYTES / 1024 - 1)}`;
      writeFileSync(join(cwd, "big.md"), big);
      const count = 3 * (MAX_PROMPT_ROOT_CHARS / MAX_TEXT_FILE_BYTES);
      for (let i = 0; i < count; i++) symlinkSync("../../big.md", join(prompts, `p${i}.md`));

      const r = await load({ cwd, home: join(base, "home"), agentDir: join(base, "agent") });
      const kept = r.templates.reduce((n, t) => n + t.content.length, 0);
      expect(kept).toBeLessThanOrEqual(MAX_PROMPT_ROOT_CHARS + MAX_TEXT_FILE_BYTES);
      expect(r.templates.length).toBeGreaterThan(0);
      expect(r.templates.length).toBeLessThan(count);
      expect(r.diagnostics.map((d) => [d.code, d.path])).toContainEqual([
        "prompts-total-cut",
        prompts,
      ]);
    },
    60_000,
  );
});
