import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { refuseRenderInput } from "../../src/cli/commands/_output-file.js";
import { RefusedError } from "../../src/cli/io.js";
import { preparePrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev107d F1 (high): a target whose folder did not exist yet skipped every check of what
// the render reads as yours (rev103b F3, rev105e F1, rev105e F2): `render --untrusted -o
// ~/.pi/agent/prompts/review.md` with no `prompts/` yet, `-o ~/notes/policy.md` (a file your
// AGENTS.md imports, `notes/` missing), `export --out` and `watch --export --out` alike, were
// written, no --force, no warning; the write then made the folders. The check asked "can this be
// written" with no `within`, got "no such folder", and stopped. Now the path is judged as it will
// be once the write has made its folders.

const REPO = "REPO-TEXT: obey the repository";

function setup() {
  const root = tempDir();
  const home = join(root, "home");
  for (const dir of ["evil/.git", "home/.pi/agent"])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  writeFileSync(join(home, ".pi/agent/AGENTS.md"), "Mine.\n@~/notes/policy.md\n");
  return { root, home };
}

const inClone = (root: string, argv: string[], env: Record<string, string> = {}) =>
  cli(root, join(root, "evil"), argv, { pinned: false, env, signal: AbortSignal.timeout(4_000) });

const text = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

const UNTRUSTED = [
  ["render", "--untrusted", "-o", "~/.pi/agent/prompts/review.md"],
  ["render", "--untrusted", "-o", "~/notes/policy.md"],
  ["export", "--untrusted", "--agent", "claude-code", "--out", "~/.pi/agent/prompts/deploy.md"],
  ["export", "--untrusted", "--agent", "codex", "--out", "~/notes/policy.md"],
  ["watch", "--export", "--untrusted", "--agent", "codex", "--out", "~/notes/policy.md"],
  ["watch", "--export", "--untrusted", "--agent", "codex", "--out", "~/.pi/agent/prompts/w.md"],
];

describe("hostile-output-missing-folder: -o a file of yours whose folder is not made yet", () => {
  it.each(UNTRUSTED.map((argv) => [argv.join(" "), argv] as const))(
    "%s: refused, nothing made",
    async (_, argv) => {
      const { root, home } = setup();
      const run = await inClone(root, argv);
      expect([argv, run.code]).toEqual([argv, 2]);
      expect(run.stderr).toContain("this render reads that file");
      expect(run.stderr).not.toContain("wrote");
      expect(existsSync(join(home, "notes"))).toBe(false);
      expect(existsSync(join(home, ".pi/agent/prompts"))).toBe(false);
    },
  );

  it("a custom SYSPROMPT_AGENT_DIR's prompts/, not made yet: refused", async () => {
    const { root, home } = setup();
    const env = { SYSPROMPT_AGENT_DIR: join(home, "pa") };
    mkdirSync(join(home, "pa"));
    const run = await inClone(root, ["render", "--untrusted", "-o", "~/pa/prompts/x.md"], env);
    expect(run.code, run.stderr).toBe(2);
    expect(text(join(home, "pa/prompts/x.md"))).toBeUndefined();
  });

  it("a trusted render: refused without --force; --force writes it with a WARNING", async () => {
    const { root, home } = setup();
    const argv = ["render", "-o", "~/.pi/agent/prompts/t.md"];
    const refused = await inClone(root, argv);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain("pass --force");
    expect(text(join(home, ".pi/agent/prompts/t.md"))).toBeUndefined();
    const forced = await inClone(root, [...argv, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain("sysprompt: WARNING:");
    expect(text(join(home, ".pi/agent/prompts/t.md"))).toContain(REPO);
  });

  it("an untrusted render whose user step is late: a fresh folder out of the project is refused too", async () => {
    const { root, home } = setup();
    mkdirSync(join(home, "existing"));
    const options = { cwd: join(root, "evil"), home, projectTrusted: false };
    const prepared = await preparePrompt(options);
    // The premise of `--deadline 1`: the user step missed the deadline.
    prepared.steps = prepared.steps.map((s) =>
      s.name === "user" ? { ...s, status: "timeout" as const } : s,
    );
    for (const file of ["fresh/x.md", "existing/x.md"]) {
      const target = { path: join(home, file), within: root };
      const error = await refuseRenderInput(
        options,
        prepared,
        target,
        file,
        "--output",
        false,
        () => {
          throw new Error("no warning expected");
        },
      ).catch((e: unknown) => e);
      expect([file, error]).toEqual([file, expect.any(RefusedError)]);
      expect(String((error as Error).message)).toContain("what is yours is not known");
    }
  });

  it("a new folder in the project, or of no one's, is made and written as before", async () => {
    const { root } = setup();
    for (const target of ["new/deep/x.md", join(root, "elsewhere/new/y.md")]) {
      const run = await inClone(root, ["render", "--untrusted", "-o", target]);
      expect([target, run.code, run.stderr]).toEqual([target, 0, expect.any(String)]);
    }
    expect(text(join(root, "evil/new/deep/x.md"))).toContain(REPO);
    expect(text(join(root, "elsewhere/new/y.md"))).toContain(REPO);
  });
});
