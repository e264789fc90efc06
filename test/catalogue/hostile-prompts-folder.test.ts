import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  loadPromptTemplates,
  loadPromptTemplatesSync,
  MAX_PROMPT_FOLDER_ENTRIES,
} from "../../src/prompt-templates/load.js";
import { tempDir } from "../api/_helpers.js";

// Every .md file of a prompts folder is a slash-command template, read and
// parsed: a trusted project's .pi/prompts of 20,000 templates took `list`
// 13 s and 430 MB and `check` 15 s (a million would be hours). A prompts
// folder of more than MAX_PROMPT_FOLDER_ENTRIES entries is not read, with
// one warning.

describe("hostile repository: a prompts folder of very many templates", () => {
  it.each([
    ["async", loadPromptTemplates],
    [
      "sync",
      async (o: Parameters<typeof loadPromptTemplatesSync>[0]) => loadPromptTemplatesSync(o),
    ],
  ] as const)(
    "is not read past the cap (%s)",
    async (_how, load) => {
      const base = tempDir();
      const cwd = join(base, "repo");
      const prompts = join(cwd, ".pi", "prompts");
      mkdirSync(prompts, { recursive: true });
      mkdirSync(join(cwd, ".git"));
      for (let i = 0; i < MAX_PROMPT_FOLDER_ENTRIES + 50; i++) {
        writeFileSync(join(prompts, `p${i}.md`), "---\ndescription: d\n---\nbody\n");
      }
      const r = await load({ cwd, home: join(base, "home"), agentDir: join(base, "agent") });
      expect(r.templates).toEqual([]);
      expect(r.diagnostics.map((d) => [d.code, d.path])).toContainEqual([
        "prompts-folder-too-large",
        prompts,
      ]);
    },
    60_000,
  );
});
