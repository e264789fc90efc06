import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { realpath } from "../../src/_io.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { timed } from "../gather/_timed.js";

// A real path is learnt by an O_PATH open read back from /proc/self/fd (see
// hostile-realpath-chain-scale). Two answers of that read sent every look-up
// back to glibc's realpath, which walks the path again per component and
// after each link (seconds for a link to a link to … of deep paths), and a
// repository chooses both:
// - a name ending in " (deleted)": /proc says so of a file removed while
//   open, so the file named `g (deleted)` at the end of such a chain was
//   resolved the slow way every time: 1.6 s one look-up at 1,000 folders
//   deep, 5-11 s at 2,000; 20 rule files linked to it made a library render
//   with deadlineMs 1000 return after 5.0 s and keep the process busy 69 s
//   after it returned;
// - a real path longer than PATH_MAX (4,096), which /proc cannot spell
//   (ENAMETOOLONG): the first one turned the /proc way off for the rest of the
//   process, so every later chain cost seconds again (2.6 s at 1,000 deep).

vi.setConfig({ testTimeout: 120_000 });

const DEPTH = 1_000;
const CHAIN = 38;
/** What one look-up may take on a loaded machine; the native call took seconds. */
const BOUND_MS = 1_000;

let base = "";
let project = "";
let deep = "";

/** A chain of CHAIN links in `deep` leading to `leaf`; its first link. */
function chain(prefix: string, leaf: string): string {
  for (let i = 0; i < CHAIN; i++) {
    const to = i === CHAIN - 1 ? leaf : `${prefix}${i + 1}`;
    symlinkSync(join(deep, to), join(deep, `${prefix}${i}`));
  }
  return join(deep, `${prefix}0`);
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "sysprompt-realpath-odd-")));
  project = join(base, "project");
  mkdirSync(project);
  execFileSync("git", ["init", "-q"], { cwd: project });
  deep = join(project, ...Array.from({ length: DEPTH }, () => "d"));
  mkdirSync(deep, { recursive: true });
  writeFileSync(
    join(deep, "g (deleted)"),
    "---\nalwaysApply: true\n---\nRule text behind the chain.\n",
  );
  writeFileSync(join(deep, "plain"), "plain\n");
  mkdirSync(join(project, ".cursor", "rules"), { recursive: true });
  const first = chain("l", "g (deleted)");
  for (let i = 0; i < 5; i++) symlinkSync(first, join(project, ".cursor", "rules", `r${i}.mdc`));
  chain("p", "plain");
  // A folder whose real path is longer than PATH_MAX, reached by short links.
  const long = join(base, "long");
  mkdirSync(long);
  const part = "x".repeat(200);
  for (let i = 0; i < 25; i++) {
    const above = i === 0 ? long : join(long, `s${i - 1}`);
    mkdirSync(join(above, part));
    symlinkSync(join(above, part), join(long, `s${i}`));
  }
  writeFileSync(join(long, "s24", "f"), "far\n");
});
// rm, not rmSync: node cannot name the files below PATH_MAX.
afterAll(() => execFileSync("rm", ["-rf", base]));

describe("hostile repository: names /proc/self/fd cannot say plainly", () => {
  it('a file named "… (deleted)" at the end of a chain is resolved in one walk, as itself', async () => {
    const { value, ms } = await timed(() => realpath(join(deep, "l0")));
    expect(value).toBe(join(deep, "g (deleted)"));
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("a real path longer than PATH_MAX fails as realpath does, and later chains stay fast", async () => {
    await expect(realpath(join(base, "long", "s24", "f"))).rejects.toMatchObject({
      code: "ENAMETOOLONG",
    });
    const { value, ms } = await timed(() => realpath(join(deep, "p0")));
    expect(value).toBe(join(deep, "plain"));
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("rule files linked to such a chain are read, and the render keeps its deadline", async () => {
    const home = join(base, "home");
    const agentDir = join(home, ".pi", "agent");
    mkdirSync(agentDir, { recursive: true });
    const { value, ms } = await timed(() =>
      renderSystemPrompt({ cwd: project, agentDir, deadlineMs: 2_000 }),
    );
    expect(value.diagnostics.filter((d) => d.code === "step-timeout")).toEqual([]);
    expect(value.text).toContain("Rule text behind the chain.");
    expect(ms).toBeLessThan(4 * BOUND_MS);
  });
});
