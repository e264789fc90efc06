import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The rule lives in biome.json (`npm run lint`): a `_name.ts` module under src/ may be
// imported from its own folder and the folders below it, nowhere else. Here the project's
// own config lints a small tree of its own, so the rule is seen to refuse and to allow.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIOME = join(ROOT, "node_modules/@biomejs/biome/bin/biome");

const FILES: Record<string, string> = {
  "src/a/_own.ts": "export const own = 1;\n",
  "src/a/b/_deep.ts": "export const deep = 1;\n",
  "src/_top.ts": "export const top = 1;\n",
  "src/c/_other.ts": "export const other = 1;\n",
  // Allowed: its own folder, the folder above, the top of src.
  "src/a/same.ts": 'import { own } from "./_own.js";\n\nexport const x = own;\n',
  "src/a/b/below.ts":
    'import { top } from "../../_top.js";\nimport { own } from "../_own.js";\n\nexport const x = [own, top];\n',
  // Refused: a sibling folder's, a subfolder's, by dynamic import, by re-export.
  "src/a/sibling.ts": 'import { other } from "../c/_other.js";\n\nexport const x = other;\n',
  "src/a/into-child.ts": 'import { deep } from "./b/_deep.js";\n\nexport const x = deep;\n',
  "src/a/lazy.ts": 'export const x = () => import("../c/_other.js");\n',
  "src/a/re-export.ts": 'export { other } from "../c/_other.js";\n',
  // Tests may reach any module they test.
  "test/reach.test.ts": 'import { other } from "../src/c/_other.js";\n\nexport const x = other;\n',
};

interface Finding {
  path: string;
  category: string;
  line: number;
}

let dir: string;
let findings: Finding[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "sysprompt-private-"));
  const config = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8"));
  // The tree is no git checkout; the schema path is the repository's.
  delete config.vcs;
  delete config.$schema;
  writeFileSync(join(dir, "biome.json"), JSON.stringify(config));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  let out: string;
  try {
    out = execFileSync(process.execPath, [BIOME, "lint", "--reporter=json", "."], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    // Biome exits 1 when it finds errors; the report is on stdout all the same.
    out = (error as { stdout: string }).stdout;
  }
  const report = JSON.parse(out) as {
    diagnostics: { category: string; location: { path: string; start: { line: number } } }[];
  };
  findings = report.diagnostics
    .map((d) => ({ path: d.location.path, category: d.category, line: d.location.start.line }))
    .sort((a, b) => a.path.localeCompare(b.path));
}, 30_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("private modules (`_name.ts`) are refused outside their folder by the lint", () => {
  it("refuses a sibling's, a subfolder's, a dynamic import and a re-export; allows the rest", () => {
    const rule = "lint/style/noRestrictedImports";
    expect(findings).toEqual([
      { path: "src/a/into-child.ts", category: rule, line: 1 },
      { path: "src/a/lazy.ts", category: rule, line: 1 },
      { path: "src/a/re-export.ts", category: rule, line: 1 },
      { path: "src/a/sibling.ts", category: rule, line: 1 },
    ]);
  });
});
