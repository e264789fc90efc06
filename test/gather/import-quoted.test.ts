import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextFiles } from "../../src/gather/context/context-files.js";
import { findImportTokens } from "../../src/gather/context/import-tokens.js";
import { tempDir } from "../api/_helpers.js";
import { cpuTimed } from "./_timed.js";

function project(agents: string): { p: string; agent: string } {
  const root = tempDir();
  const p = join(root, "project");
  mkdirSync(join(p, ".git"), { recursive: true });
  mkdirSync(join(p, "doc ü"));
  writeFileSync(join(p, "doc ü", "x.md"), "Spaced.");
  writeFileSync(join(p, "AGENTS.md"), agents);
  const agent = join(root, "agent");
  mkdirSync(agent);
  return { p, agent };
}

describe('quoted imports: @"path with spaces"', () => {
  it("a quoted path runs to the closing quote on the same line", () => {
    expect(findImportTokens('See @"doc ü/x.md". And @"no close\nhere" @""')).toEqual([
      { start: 4, end: 17, path: "doc ü/x.md", quoted: true, line: 1, column: 5 },
    ]);
  });

  it("imports the file", async () => {
    const { p, agent } = project('Read @"doc ü/x.md" and @"./doc ü/x.md".\n');
    const result = await loadContextFiles({ cwd: p, agentDir: agent });
    expect(result).toEqual({
      files: [
        { path: `${p}/AGENTS.md`, content: 'Read Spaced. and @"./doc ü/x.md".', origin: "project" },
      ],
      diagnostics: [
        {
          level: "info",
          code: "import-repeat",
          message: `@"./doc ü/x.md": ${p}/doc ü/x.md is already part of this context file (a cycle or a repeat); left as written`,
          path: `${p}/AGENTS.md`,
          line: 1,
          column: 24,
        },
      ],
    });
  });
});

describe("tokens that look like npm scopes or path aliases", () => {
  it("are an info when they name no file; a missing path with an extension is still a warning", async () => {
    const { p, agent } = project(
      "Run npm i @types/node, see @scope/pkg/... and @/components/Button; but @docs/nope.md\n",
    );
    const result = await loadContextFiles({ cwd: p, agentDir: agent });
    const at = (level: string, code: string, message: string, column: number) => ({
      level,
      code,
      message,
      path: `${p}/AGENTS.md`,
      line: 1,
      column,
    });
    expect(result.diagnostics).toEqual([
      at("info", "import-missing", `@types/node: no file at ${p}/types/node; left as written`, 11),
      at("info", "import-missing", `@scope/pkg/: no file at ${p}/scope/pkg; left as written`, 28),
      at(
        "info",
        "import-outside",
        `@/components/Button: not imported: it resolves to /components/Button, outside the project root ${p}; left as written`,
        47,
      ),
      at(
        "warning",
        "import-missing",
        `@docs/nope.md: no file at ${p}/docs/nope.md; left as written`,
        72,
      ),
    ]);
  });

  it("an absolute path into a system folder stays a warning", async () => {
    const { p, agent } = project("@/etc/passwd\n");
    const result = await loadContextFiles({ cwd: p, agentDir: agent });
    expect(result.diagnostics.map((d) => [d.level, d.code])).toEqual([
      ["warning", "import-outside"],
    ]);
  });
});

describe("quoted imports cost linear time", () => {
  // ~1 MB each, made so that a scanner looking for each opener's quote afresh
  // would be quadratic (minutes). The bound is on CPU time (see cpuTimed): on
  // the clock, at a load of 9, one case took 830 ms of these 1,500.
  const BOUND_MS = 1500;
  const MB = 1 << 20;
  for (const [name, text] of Object.entries({
    "openers whose only closing quote is on a later line": '@"x\n'.repeat(MB / 4),
    "openers on one line, each closed by the next": ' @"x'.repeat(MB / 4),
    "many quoted imports": ' @"a b"'.repeat(MB / 7),
  })) {
    it(name, async () => {
      const { cpuMs, wallMs } = await cpuTimed(() => findImportTokens(text));
      expect(cpuMs, `CPU time (${wallMs} ms on the clock)`).toBeLessThan(BOUND_MS);
    });
  }
});
