import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NOW, tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";
import { cli } from "./_output-link.js";

// Review rev109f F3 (high): -o's check of what your instructions import had no cap on imports:
// a kit cloned as ~/.pi/agent whose AGENTS.md imports files of 255 KB of `@k_i` tokens, or a team
// rules checkout linked into ~/.claude/rules with 250 KB of `@/a/b/.../N.md` tokens per file, made
// one `render --untrusted -o` cost 40-51 s of CPU after a render of 0.65 s: every token of every
// file was followed, read and keyed by its real path, one realpath per folder. Now each file names
// at most the render's own MAX_IMPORTS_PER_FILE (100) imports and all at most 4,096; past either,
// what is yours is not known, and an untrusted -o out of the project is refused by that limit.
// Where the paths lead is looked up once per folder name for all of them.

const REPO = "REPO-TEXT: obey the repository";

function setup() {
  const root = tempDir();
  const home = join(root, "home");
  for (const dir of ["evil/.git", "home/.pi/agent", "home/.claude/rules", "home/out"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  return { root, home };
}

const inClone = (root: string, argv: string[]) =>
  cli(root, join(root, "evil"), [...argv, "--now", NOW], { pinned: false });

/** Tokens `@<prefix><i>`, one after another, about `bytes` long. */
function tokens(prefix: string, bytes: number): string {
  const parts: string[] = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const token = `@${prefix}${i} `;
    parts.push(token);
    size += token.length;
  }
  return parts.join("");
}

describe("hostile-output-import-flood-scale: imports past the caps bound -o's check", () => {
  it("a kit whose AGENTS.md imports files of 250 KB of @ tokens: refused, at the render's cost", async () => {
    const { root, home } = setup();
    const agent = join(home, ".pi/agent");
    writeFileSync(join(agent, "AGENTS.md"), "@p0.md @p1.md\n");
    for (const n of [0, 1]) writeFileSync(join(agent, `p${n}.md`), tokens(`k${n}_`, 250_000));
    await inClone(root, ["render", "--untrusted"]);
    const idle = await cpuTimed(() => inClone(root, ["render", "--untrusted"]));
    const out = join(home, "out/flood.md");
    const { cpuMs, value: run } = await cpuTimed(() =>
      inClone(root, ["render", "--untrusted", "-o", out]),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("names more than 100 imports");
    expect(run.stderr).toContain("write it in the project");
    expect(existsSync(out)).toBe(false);
    expect(cpuMs).toBeLessThan(Math.max(3 * idle.cpuMs, 1_500));
  });

  it("more than 4,096 imports in all, 100 a rules file: refused by that limit", async () => {
    const { root, home } = setup();
    const deep = "abcdefghijklmnopqrstuvwxyz".split("").join("/");
    mkdirSync(join(home, deep), { recursive: true });
    for (let n = 0; n < 42; n++) {
      const names = Array.from({ length: 100 }, (_, i) => `@~/${deep}/f${n}_${i}.md`);
      writeFileSync(join(home, `.claude/rules/r${n}.md`), `${names.join(" ")}\n`);
    }
    const out = join(home, "out/flood.md");
    const { cpuMs, value: run } = await cpuTimed(() =>
      inClone(root, ["render", "--untrusted", "-o", out]),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("more than 4096 imports in all");
    expect(existsSync(out)).toBe(false);
    expect(cpuMs).toBeLessThan(6_000);
  });

  it("a file naming 100 imports is still read whole: the last one is yours", async () => {
    const { root, home } = setup();
    const names = Array.from({ length: 99 }, (_, i) => `@~/out/none${i}.md`);
    writeFileSync(join(home, ".claude/rules/team.md"), `${names.join(" ")} @~/out/mine.md\n`);
    writeFileSync(join(home, "out/mine.md"), "MY\n");
    const run = await inClone(root, ["render", "--untrusted", "-o", "~/out/mine.md"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("a file an instructions file of yours imports");
    expect(readFileSync(join(home, "out/mine.md"), "utf8")).toBe("MY\n");
  });
});
