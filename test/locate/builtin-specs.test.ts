import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { elementNamesOf } from "../../src/_prompt-text.js";
import { createEngine, PromptWork } from "../../src/engine/index.js";
import { BUILT_ENTRY, ensureBuilt } from "../catalogue/_built.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

// The build compiles the builtin prompts ahead of time: their Handlebars specs
// go to dist/builtin-templates.cjs (code, which the CLI bundle takes in), and
// dist/builtin-frontmatter.json names each by index.
describe("the builtin prompts compiled at build time", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it("are a module of specs that the JSON file's entries name by index", () => {
    const entries = JSON.parse(
      readFileSync(join(REPO, "dist", "builtin-frontmatter.json"), "utf8"),
    ) as { template?: { spec: unknown } }[];
    const specs = execFileSync(
      process.execPath,
      [
        "-e",
        `const s = require(${JSON.stringify(join(REPO, "dist", "builtin-templates.cjs"))});
         process.stdout.write(JSON.stringify(s.map((x) => typeof x.main)))`,
      ],
      { encoding: "utf8" },
    );
    const kinds = JSON.parse(specs) as string[];
    const indexes = entries.flatMap((e) => (e.template ? [e.template.spec] : []));
    expect(indexes.length).toBeGreaterThan(5);
    expect(indexes).toEqual(kinds.map((_, i) => i));
    expect(new Set(kinds)).toEqual(new Set(["function"]));
  });

  it("carry each template's tags and words, as a scan of its source counts them", () => {
    const entries = JSON.parse(
      readFileSync(join(REPO, "dist", "builtin-frontmatter.json"), "utf8"),
    ) as { template?: { source: string; size?: unknown } }[];
    const templates = entries.flatMap((e) => (e.template ? [e.template] : []));
    expect(templates.length).toBeGreaterThan(5);
    for (const { source, size } of templates) {
      // An engine with nothing preloaded scans the source; the prompt's totals are charged before it renders.
      const work = new PromptWork();
      try {
        createEngine().render(source, {}, { work });
      } catch {
        // Data a builtin needs is missing here: what was charged is all this counts.
      }
      expect({ source, size }).toEqual({ source, size: { tags: work.tags, words: work.words } });
    }
  });

  it("carry each body's element names, as reading the body finds them", () => {
    const entries = JSON.parse(
      readFileSync(join(REPO, "dist", "builtin-frontmatter.json"), "utf8"),
    ) as { body: string; elements?: unknown }[];
    expect(entries.length).toBeGreaterThan(5);
    for (const { body, elements } of entries) {
      expect({ body, elements }).toEqual({ body, elements: elementNamesOf(body) });
    }
  });

  it("render through the library without loading the Handlebars compiler", () => {
    const script = `
      const { renderSystemPrompt } = await import(${JSON.stringify(BUILT_ENTRY)});
      const { createRequire } = await import("node:module");
      const dir = process.cwd();
      const result = await renderSystemPrompt({ cwd: dir, agentDir: dir, home: dir, now: "2026-01-02T03:04:05Z" });
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      process.stdout.write(JSON.stringify({
        compiler: loaded.some((p) => /handlebars[\\\\/]dist[\\\\/]cjs[\\\\/]handlebars[\\\\/]compiler[\\\\/]/.test(p)),
        runtime: loaded.some((p) => /handlebars[\\\\/]runtime\\.js$|handlebars\\.runtime\\.js$/.test(p)),
        text: result.text.length,
      }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: mkdtempSync(join(tmpdir(), "builtin-specs-")),
      encoding: "utf8",
    });
    const seen = JSON.parse(out) as { compiler: boolean; runtime: boolean; text: number };
    expect(seen.text).toBeGreaterThan(500);
    expect(seen.runtime).toBe(true);
    expect(seen.compiler).toBe(false);
  });
});
