import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { tempDir } from "../api/_helpers.js";

function layout(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

describe("nested context files of every agent's name, on touch", () => {
  it("a nested GEMINI.md and a nested CLAUDE.md come with the first touch of their folders; the same real file comes once", async () => {
    const project = tempDir();
    layout(project, {
      ".git/HEAD": "ref: refs/heads/main\n",
      "AGENTS.md": "Root.\n",
      "packages/core/GEMINI.md": "Core: Gemini's nested file.\n",
      "packages/core/src/a.ts": "export {};\n",
      "apps/web/CLAUDE.md": "Web: Claude's nested file.\n",
      "apps/web/b.ts": "export {};\n",
      "apps/api/c.ts": "export {};\n",
    });
    // A link to a file already given adds nothing (deduped by real path).
    symlinkSync(join(project, "apps/web/CLAUDE.md"), join(project, "apps/api/GEMINI.md"));
    const delivered = new Set<string>();
    const got = await loadContextForPaths(
      ["packages/core/src/a.ts", "apps/web/b.ts", "apps/api/c.ts"],
      { cwd: project, home: join(project, "home"), delivered },
    );
    expect(got).toEqual({
      files: [
        {
          path: `${project}/packages/core/GEMINI.md`,
          content: "Core: Gemini's nested file.",
          kind: "context",
        },
        {
          path: `${project}/apps/web/CLAUDE.md`,
          content: "Web: Claude's nested file.",
          kind: "context",
        },
      ],
      diagnostics: [],
    });
  });

  it("context.fileName in .gemini/settings.json names the file Gemini CLI looks for instead of GEMINI.md", async () => {
    const project = tempDir();
    layout(project, {
      ".git/HEAD": "ref: refs/heads/main\n",
      ".gemini/settings.json": '{ "context": { "fileName": "CONTEXT.md" } }\n',
      "lib/CONTEXT.md": "Lib: under the configured name.\n",
      "lib/GEMINI.md": "Not read: the setting replaced the default name.\n",
      "lib/x.ts": "export {};\n",
    });
    const got = await loadContextForPaths(["lib/x.ts"], { cwd: project, home: join(project, "h") });
    expect(got.files).toEqual([
      {
        path: `${project}/lib/CONTEXT.md`,
        content: "Lib: under the configured name.",
        kind: "context",
      },
    ]);
  });
});
