import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILT_ENTRY, ensureBuilt } from "./_built.js";

// Attack review rev44d F5 (issue 24): renders' partial sources outlived
// them in a long-lived process. Handlebars keeps the partials of a compiled
// template's last call on it, and each render's were a view over the
// render's own partials: 130 library renders of a project whose section text
// changed each time kept 130 sets of 8 MB of partials (1,045 MB after gc).
// And the engine's partial functions, kept by name up to 4,096, held the
// source of every partial called: 1,200 renders each calling its own 1 MB
// partial kept 2.0 GB. Now a render's partials are let go when it returns,
// and the functions are kept to the cache's 32 Mi characters as well.
// Each partial a text of its own (padEnd: not a rope over one shared text);
// each in a child with V8's compilation cache off, so the heap shows ours.

const heapAfter = (script: string): number => {
  const engine = pathToFileURL(join(dirname(BUILT_ENTRY), "engine", "engine.js")).href;
  const out = spawnSync(
    process.execPath,
    [
      "--expose-gc",
      "--no-compilation-cache",
      "--input-type=module",
      "-e",
      `const { createEngine } = await import(process.argv[1]);\n${script}\nfor (let i = 0; i < 4; i++) globalThis.gc();\nprocess.stdout.write(String(process.memoryUsage().heapUsed));`,
      engine,
    ],
    { encoding: "utf8", timeout: 120_000 },
  );
  expect(out.status, out.stderr).toBe(0);
  return Number(out.stdout);
};

const MB = 1024 * 1024;

describe("hostile repository: partials outlive their render", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it("120 renders calling their own 1 MiB partial keep at most the cache's characters of them", () => {
    const heap = heapAfter(
      `
const engine = createEngine();
for (let i = 0; i < 120; i++) {
  const name = "p" + i;
  engine.render('{{> (lookup . "n")}}', { n: name }, { partials: { [name]: String(i).padEnd(MB - 64, "p") } });
}
`.replace("MB", String(MB)),
    );
    // Was 190 MB (every source kept by its partial's function); now 101 MB (the cache's).
    expect(heap).toBeLessThan(150 * MB);
  }, 180_000);
});
