import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_TEXT_FILE_BYTES } from "../../src/_fs.js";
import { readLayerForCheck } from "../../src/author/check/_layers.js";
import { loadLayer } from "../../src/locate/load-layer.js";
import { MAX_LAYER_FOLDER_CHARS } from "../../src/sections/load.js";
import { tempDir } from "../api/_helpers.js";

// A layer's sections/ and partials/ may hold 1,000 files of up to 1 MiB
// each, and each was read whole, all at once: a trusted project's
// .pi/sections of 999 links to one 1 MiB file (a 1 MiB repository) took
// render --deadline 2000 11 s and 1.1 GB, and check 42 s and 2.3 GB (check
// read the partials a second time: 81 s and 2.2 GB for .pi/partials). A
// folder's files are read until they hold MAX_LAYER_FOLDER_CHARS together;
// the rest are not read, with one warning.

describe("hostile repository: layer files of many megabytes together", () => {
  it.each(["sections", "partials"])(
    "are read no further than the folder's total (%s)",
    async (folder) => {
      const base = tempDir();
      const cwd = join(base, "repo");
      const dir = join(cwd, ".pi", folder);
      mkdirSync(dir, { recursive: true });
      mkdirSync(join(cwd, ".git"));
      const line = `${"x".repeat(1023)}\n`;
      writeFileSync(join(cwd, "big.md"), line.repeat(MAX_TEXT_FILE_BYTES / 1024 - 1));
      const count = 3 * (MAX_LAYER_FOLDER_CHARS / MAX_TEXT_FILE_BYTES);
      for (let i = 0; i < count; i++) symlinkSync("../../big.md", join(dir, `s${i}.md`));

      const layer = await loadLayer(join(cwd, ".pi"), "project", {
        customFiles: true,
        confine: { start: cwd, home: join(base, "home") },
      });
      const texts =
        folder === "sections" ? layer.sections.map((s) => s.body) : Object.values(layer.partials);
      expect(texts.length).toBeGreaterThan(0);
      expect(texts.length).toBeLessThan(count);
      expect(texts.reduce((n, t) => n + t.length, 0)).toBeLessThanOrEqual(
        MAX_LAYER_FOLDER_CHARS + MAX_TEXT_FILE_BYTES,
      );
      expect(layer.diagnostics.map((d) => [d.code, d.path])).toContainEqual([
        "layer-folder-total-cut",
        dir,
      ]);
    },
    60_000,
  );

  it("check reads the partials no further than a render", async () => {
    const base = tempDir();
    const cwd = join(base, "repo");
    const dir = join(cwd, ".pi", "partials");
    mkdirSync(dir, { recursive: true });
    mkdirSync(join(cwd, ".git"));
    writeFileSync(join(cwd, "big.md"), "x".repeat(MAX_TEXT_FILE_BYTES - 1));
    const count = 3 * (MAX_LAYER_FOLDER_CHARS / MAX_TEXT_FILE_BYTES);
    for (let i = 0; i < count; i++) symlinkSync("../../big.md", join(dir, `p${i}.md`));

    const checked = await readLayerForCheck(join(cwd, ".pi"), "project", true, {
      start: cwd,
      home: join(base, "home"),
    });
    expect(checked.partials.length).toBe(Object.keys(checked.loaded.partials).length);
    expect(checked.partials.length).toBeLessThan(count);
  }, 60_000);
});
