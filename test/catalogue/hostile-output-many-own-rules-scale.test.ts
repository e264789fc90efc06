import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NOW, tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev108a F5 (medium, a regression of rev107e F1): with more than 32 instructions files of
// yours (34 rules in `~/.claude/rules/lang`), or a rules folder over 256 entries (a link
// `~/.claude/rules/team` to a team checkout whose `.git` holds 343 entries; here 4,200), every untrusted `-o`
// out of the project was refused, `--deadline 60000` or not, and the refusal said to raise
// --deadline, which could not help. Now the rules walk has its own budget (bytes read, entries
// listed), a file with no `@` costs its read only, `.git` is not walked, and a refusal by a limit
// of the check names that limit and says to write in the project, not to raise --deadline.

const REPO = "REPO-TEXT: obey the repository";

function setup() {
  const root = tempDir();
  const home = join(root, "home");
  for (const dir of ["evil/.git", "home/.claude/rules/lang", "home/out", "team/.git/objects"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  for (let i = 1; i <= 34; i++)
    writeFileSync(join(home, `.claude/rules/lang/r${i}.md`), `Rule ${i}\n`);
  return { root, home };
}

const inClone = (root: string, argv: string[]) =>
  cli(root, join(root, "evil"), [...argv, "--now", NOW], { pinned: false });

describe("hostile-output-many-own-rules-scale: many rules of yours do not refuse every -o", () => {
  it("34 rules with no import: -o out of the project is written", async () => {
    const { root, home } = setup();
    const run = await inClone(root, [
      "render",
      "--untrusted",
      "--deadline",
      "60000",
      "-o",
      "~/out/plain.md",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(home, "out/plain.md"), "utf8")).toContain(REPO);
  });

  it("a linked team checkout's .git is not walked", async () => {
    const { root, home } = setup();
    for (let i = 1; i <= 5; i++) writeFileSync(join(root, `team/t${i}.md`), `Team rule ${i}\n`);
    for (let i = 0; i < 4200; i++) writeFileSync(join(root, `team/.git/objects/o${i}`), "x");
    symlinkSync(join(root, "team"), join(home, ".claude/rules/team"));
    const run = await inClone(root, ["render", "--untrusted", "-o", "~/out/plain.md"]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(home, "out/plain.md"), "utf8")).toContain(REPO);
  });

  it("a rule's import is still yours, among many rules", async () => {
    const { root, home } = setup();
    writeFileSync(join(home, ".claude/rules/lang/r40.md"), "Rule.\n@~/out/mine.md\n");
    writeFileSync(join(home, "out/mine.md"), "MY\n");
    const run = await inClone(root, ["render", "--untrusted", "-o", "~/out/mine.md"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("a file an instructions file of yours imports");
    expect(readFileSync(join(home, "out/mine.md"), "utf8")).toBe("MY\n");
  });

  it("over a limit of the check: refused by that limit, not told to raise --deadline", async () => {
    const { root, home } = setup();
    for (let i = 0; i < 40; i++) {
      writeFileSync(join(home, `.claude/rules/lang/big${i}.md`), `${"x".repeat(200 * 1024)}\n`);
    }
    const run = await inClone(root, ["render", "--untrusted", "-o", "~/out/plain.md"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("write it in the project");
    expect(run.stderr).not.toContain("--deadline");
    expect(() => readFileSync(join(home, "out/plain.md"))).toThrow();
  });
});
