import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadPromptTemplates } from "../../src/index.js";
import { tempDir } from "../api/_helpers.js";

// The async slash-command template loader read the user's folder, then the
// project's; stopped at its deadline (a trusted project's 100 templates of
// 32 KiB dense frontmatter: seconds of parsing), it gave no templates at
// all, the user's with the project's: `sysprompt list` showed "(none)" and
// `expand "/mine x"` exited 2. The folders read whole, the user's first,
// are now kept: by the loader itself past its default deadline, and in
// `soFar` for a caller whose own signal stopped it (list, expand, explain).

/** The project's templates take as long as that repository's: longer than the deadline. */
vi.mock("../../src/repo-files/index.js", async (importOriginal) => {
  const files = await importOriginal<typeof import("../../src/repo-files/index.js")>();
  return {
    ...files,
    readRepoTexts: async (...args: Parameters<typeof files.readRepoTexts>) => {
      if (args[0].some((p) => p.includes("/project/"))) {
        await new Promise((done) => setTimeout(done, 5_500));
      }
      return files.readRepoTexts(...args);
    },
  };
});

function fixture() {
  const root = tempDir();
  const files: Record<string, string> = {
    "agent/prompts/mine.md": "---\ndescription: mine\n---\nDo $1 my way.\n",
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/.pi/prompts/theirs.md": "---\ndescription: theirs\n---\nTheir way.\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { cwd: join(root, "project"), agentDir: join(root, "agent"), home: join(root, "home") };
}

describe("hostile repository: slow project templates do not take the user's with them", () => {
  it("loadPromptTemplates() past its default deadline keeps the user's templates", async () => {
    const loaded = await loadPromptTemplates(fixture());
    expect(loaded.diagnostics.map((d) => d.code)).toContain("load-deadline");
    expect(loaded.templates.map((t) => t.name)).toEqual(["mine"]);
  }, 15_000);

  it("a caller's signal that stops the load still finds the user's templates in soFar", async () => {
    const soFar: { value?: Awaited<ReturnType<typeof loadPromptTemplates>> } = {};
    const signal = AbortSignal.timeout(300);
    await expect(loadPromptTemplates({ ...fixture(), signal, soFar })).rejects.toBeDefined();
    expect(soFar.value?.templates.map((t) => t.name)).toEqual(["mine"]);
  }, 15_000);
});
