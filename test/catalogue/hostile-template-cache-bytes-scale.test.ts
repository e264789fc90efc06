import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILT_ENTRY, ensureBuilt } from "./_built.js";

// An engine kept up to 512 compiled templates, counted, not sized: a
// long-lived session re-rendering a repository's edited 1 MiB sections kept
// every version compiled (a compiled template holds its source about three
// times over: the source, the generated code, the literal in it). The cache
// now also holds at most MAX_CACHED_TEMPLATE_CHARS (32 Mi) of source,
// oldest out first. Here: 100 templates of 1 MiB, rendered once each, in a
// child with V8's own compilation cache off so the heap shows the engine's:
// 321 MB live before, 107 MB now.

const SCRIPT = `
const { createEngine } = await import(process.argv[1]);
const engine = createEngine();
const body = "a".repeat(1024 * 1024 - 64);
for (let i = 0; i < 100; i++) engine.render("{{x}} " + i + " " + body, { x: "y" });
for (let i = 0; i < 4; i++) globalThis.gc();
process.stdout.write(String(process.memoryUsage().heapUsed));
`;

describe("hostile repository: the template cache is bounded by size", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it("100 compiled templates of 1 MiB keep at most 32 Mi characters of them", () => {
    const engine = pathToFileURL(join(dirname(BUILT_ENTRY), "engine", "engine.js")).href;
    const out = spawnSync(
      process.execPath,
      ["--expose-gc", "--no-compilation-cache", "--input-type=module", "-e", SCRIPT, engine],
      { encoding: "utf8", timeout: 120_000 },
    );
    expect(out.status, out.stderr).toBe(0);
    expect(Number(out.stdout)).toBeLessThan(160 * 1024 * 1024);
  }, 180_000);
});
