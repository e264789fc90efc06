import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A repository whose `.pi` is a FIFO (or a file) gave seven warnings, one for
// each file and folder of the project layer (sysprompt.yaml, sections,
// partials, SYSTEM.md, SYSTEM_TEMPLATE.md, APPEND_SYSTEM.md, general-rules.md),
// each saying "ENOTDIR: not a directory" about a path that names none of the
// user's files. It is now one warning naming `.pi` and what it is; the
// prompt is the one without a project layer.

const UNREAD =
  "nothing of the project layer is read (sysprompt.yaml, SYSTEM.md, APPEND_SYSTEM.md, sections/, partials/, general-rules.md)";

describe("hostile repository: .pi that is not a folder", () => {
  for (const [kind, make, words] of [
    ["a FIFO", (path: string) => execFileSync("mkfifo", [path]), "a FIFO"],
    ["a file", (path: string) => writeFileSync(path, "not a folder\n"), "a regular file"],
  ] as const) {
    it(`.pi as ${kind}: one warning naming it, and the prompt of a project without one`, async () => {
      const root = tempDir();
      const options = pinned(root);
      const project = options.cwd as string;
      mkdirSync(join(root, "home"), { recursive: true });
      const clean = await renderSystemPrompt(options);
      make(join(project, ".pi"));
      const result = await renderSystemPrompt(options);
      expect(result.diagnostics).toEqual([
        ...clean.diagnostics,
        {
          level: "warning",
          code: "layer-not-folder",
          message: `${words}, not a folder: ${UNREAD}`,
          path: join(project, ".pi"),
        },
      ]);
      expect(result.text).toBe(clean.text);
    });
  }
});
