import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSectionFile } from "../../src/sections/load.js";

const SECTIONS = join(import.meta.dirname, "../../prompts/sections");

/** Every builtin section file's own `cache:` and `order:`, in prompt order. */
function builtinClasses() {
  return readdirSync(SECTIONS)
    .filter((f) => f.endsWith(".md") && !f.includes("@"))
    .sort()
    .map((file) => {
      const name = file.slice(0, -".md".length);
      const text = readFileSync(join(SECTIONS, file), "utf8");
      const parsed = parseSectionFile(name, text, join(SECTIONS, file), "builtin");
      const meta = parsed.section?.meta ?? {};
      return { name, cache: meta.cache, order: meta.order, diagnostics: parsed.diagnostics };
    });
}

describe("builtin sections' cache classes", () => {
  it("each one declares its class; the stable ones come before the session ones by order too", () => {
    const rows = builtinClasses().sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    expect(rows.map((r) => [r.name, r.cache, r.diagnostics])).toEqual([
      ["preamble", "stable", []],
      ["tools", "stable", []],
      ["rules", "stable", []],
      ["docs", "stable", []],
      ["addendum", "stable", []],
      ["project_context", "stable", []],
      ["project_rules", "stable", []],
      ["skills", "stable", []],
      // The working directory is fixed for a session and the same for every
      // session started there: it belongs to the prefix a provider caches.
      ["cwd", "stable", []],
      ["environment", "session", []],
      ["dir_context", "session", []],
      ["workspace_tree", "session", []],
      ["workspace_roots", "session", []],
      ["git", "session", []],
      ["date", "session", []],
    ]);
  });
});
