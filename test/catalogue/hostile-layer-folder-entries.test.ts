import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { MAX_LAYER_FOLDER_ENTRIES } from "../../src/sections/load.js";
import { bigFolder } from "../_big-folder.js";
import { tempDir } from "../api/_helpers.js";

// A trusted project's .pi/sections and .pi/partials were listed whole, with
// one ignored-file diagnostic for each entry not ending in .md, and the
// partials' diagnostics were spread into one push: a .pi/partials of a
// million files crashed render --deadline 1000 after 6 s and 736 MB
// (RangeError: Maximum call stack size exceeded), and .pi/sections of a
// million took the project step past its deadline. A layer folder of more
// than MAX_LAYER_FOLDER_ENTRIES entries is not read, with one warning.

function project(folder: "sections" | "partials", count: number) {
  const base = tempDir();
  const cwd = join(base, "repo");
  const dir = join(cwd, ".pi", folder);
  bigFolder(dir, count, { seeds: base });
  mkdirSync(join(cwd, ".git"));
  const home = join(base, "home");
  mkdirSync(home);
  return { cwd, home, dir };
}

describe("hostile repository: a layer folder of very many entries", () => {
  it.each(["sections", "partials"] as const)(
    ".pi/%s is not read past the cap: one warning, not a diagnostic an entry",
    async (folder) => {
      const p = project(folder, MAX_LAYER_FOLDER_ENTRIES + 500);
      const r = await renderSystemPrompt({ cwd: p.cwd, home: p.home, deadlineMs: 20_000 });
      const about = r.diagnostics.filter((d) => d.path?.startsWith(p.dir));
      expect(about.map((d) => [d.code, d.path])).toEqual([["layer-folder-too-large", p.dir]]);
    },
    60_000,
  );
});
