import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILT_ENTRY, ensureBuilt } from "./_built.js";

// Attack review rev45b F3 (issue 24): a template that failed at run time
// kept the syntax tree parsed to locate the error on its engine cache
// entry, which counts the template's source and tags but not its tree. A
// one-tag template of 9,900 key=value pairs (110 KB) kept a 4.2 MB tree; a
// long-lived host rendering a failing section whose text changed each turn
// held 640 MB after 150 turns. Now the tree is parsed for the error, and let go.

const heapAfter = (script: string): number => {
  const engine = pathToFileURL(join(dirname(BUILT_ENTRY), "engine", "engine.js")).href;
  const out = spawnSync(
    process.execPath,
    [
      "--expose-gc",
      "--input-type=module",
      "-e",
      `const { createEngine, PromptWork } = await import(process.argv[1]);\n${script}\nfor (let i = 0; i < 4; i++) globalThis.gc();\nprocess.stdout.write(String(process.memoryUsage().heapUsed));`,
      engine,
    ],
    { encoding: "utf8", timeout: 120_000 },
  );
  expect(out.status, out.stderr).toBe(0);
  return Number(out.stdout);
};

const MB = 1024 * 1024;

describe("hostile repository: templates that fail at run time", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it("keep no syntax tree: 12 failing texts of 5,000 pairs each", () => {
    const script = (fail: boolean) => `
const engine = createEngine();
const pairs = Array.from({ length: 5000 }, (_, i) => "a" + i + "=" + i).join(" ");
let failed = 0;
for (let i = 0; i < 12; i++) {
  try {
    engine.render("v" + i + " {{lookup z ${fail ? "" : "z "}" + pairs + "}}", {}, { work: new PromptWork() });
  } catch (error) {
    if (!String(error.message).includes("lookup")) throw error;
    failed++;
  }
}
if (failed !== ${fail ? 12 : 0}) throw new Error("failed " + failed);
`;
    const failing = heapAfter(script(true));
    const rendering = heapAfter(script(false));
    // Was ~23 MB more than the same templates rendering fine (~2 MB a tree); now the same.
    expect(failing - rendering).toBeLessThan(8 * MB);
  }, 180_000);
});
