import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// rev68a F3, its cost: a Mercurial working copy's `.hgignore` is regular
// expressions the repository writes, and a backtracking engine takes
// exponential time on `(a*)*b` against a long name. They are matched by a
// linear matcher (src/repo-files/linear-regex.ts), its whole work bounded: 1,000
// hostile lines against names of 250 letters three deep cost 0.10 s to
// compile and 0.12-0.25 s of tests at most (measured alone); past the bound nothing more is matched and the door refuses.

const SHAPES = ["(a*)*b", "(a|aa)+$", "^(a|a?)+c$", "(x+x+)+y", "(.*a){12}z", "([a-z]+)*[0-9]"];
let seed = 7;
const ab = (n: number) =>
  Array.from({ length: n }, () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed < 1073741824 ? "a" : "b";
  }).join("");

function project(lines: string[]) {
  const base = tempDir();
  const root = join(base, "project");
  mkdirSync(join(root, ".hg"), { recursive: true });
  writeFileSync(join(root, ".hgignore"), `${lines.join("\n")}\n`);
  const deep = join(root, "a".repeat(250), ab(250), "a".repeat(250));
  mkdirSync(deep, { recursive: true });
  const imports: string[] = [];
  for (let i = 0; i < 40; i++) {
    writeFileSync(join(deep, `n${i}.md`), `NOTE-${i}-MARKER\n`);
    imports.push(`@${join(deep, `n${i}.md`).slice(root.length + 1)}`);
  }
  writeFileSync(join(root, "AGENTS.md"), `${imports.join("\n")}\n`);
  mkdirSync(join(base, "home", ".pi", "agent"), { recursive: true });
  return { base, root };
}

const render = (base: string, root: string) =>
  renderSystemPrompt({
    cwd: root,
    home: join(base, "home"),
    agentDir: join(base, "home", ".pi", "agent"),
    env: {},
    projectTrusted: false,
    workspaceTree: true,
    deadlineMs: 20_000,
  });

describe("hostile repository: 1,000 backtracking-bomb .hgignore lines cost a render linear time", () => {
  it("ReDoS shapes: matched in linear time, no note read", async () => {
    const { base, root } = project(
      Array.from({ length: 1000 }, (_, i) => `${SHAPES[i % SHAPES.length]}${i % 7 ? `q${i}` : ""}`),
    );
    const started = performance.now();
    const result = await render(base, root);
    const took = performance.now() - started;
    expect(result.text).not.toMatch(/NOTE-\d+-MARKER/);
    // Measured 2.1 s for the whole first render (the modules' cold start in it), 0.8 s for the
    // second; a backtracking engine does not finish.
    expect(took).toBeLessThan(8000);
  });

  it("lines built to defeat the DFA: the work bound is met, and the door refuses what it cannot prove kept", async () => {
    const { base, root } = project(
      Array.from({ length: 1000 }, (_, i) => `a[ab]{${10 + (i % 10)}}c${i}`),
    );
    const started = performance.now();
    const result = await render(base, root);
    const took = performance.now() - started;
    expect(result.text).not.toMatch(/NOTE-\d+-MARKER/);
    expect(result.diagnostics.some((d) => d.message.includes("cost too much to match"))).toBe(true);
    expect(took).toBeLessThan(8000);
  });
});
