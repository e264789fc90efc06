import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { globalInstructionPlaces } from "../../src/hook/snippet.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev109f F4 (medium): Gemini CLI's `$GEMINI_CLI_HOME` (its home folder in place of yours:
// it loads `$GEMINI_CLI_HOME/.gemini/GEMINI.md` as your global memory) and opencode's
// `$OPENCODE_CONFIG_DIR` (its config folder in place of ~/.config/opencode: it loads its
// `AGENTS.md` as your global rules) were not followed as moved places, as `$CODEX_HOME` and
// `$CLAUDE_CONFIG_DIR` are: `render --untrusted --force -o $GEMINI_CLI_HOME/.gemini/GEMINI.md`
// and `-o $OPENCODE_CONFIG_DIR/AGENTS.md` were written, and a file that GEMINI.md imports was
// written without --force. Now both are in MOVED_INSTRUCTION_PLACES: their files, what those
// import, and opencode's prompts/ there are yours to every -o check.

const REPO = "REPO-TEXT: obey the repository";

function setup() {
  const root = tempDir();
  for (const dir of ["evil/.git", "home", "gh/.gemini", "oc/prompts", "notes"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  return root;
}

const inClone = (root: string, argv: string[], env: Record<string, string>) =>
  cli(root, join(root, "evil"), [...argv, "--now", NOW], { pinned: false, env });

describe("hostile-output-moved-gemini-opencode-home: $GEMINI_CLI_HOME and $OPENCODE_CONFIG_DIR", () => {
  it("both name global instructions files", () => {
    const env = { GEMINI_CLI_HOME: "/g", OPENCODE_CONFIG_DIR: "~/oc", XDG_CONFIG_HOME: "" };
    const moved = globalInstructionPlaces(["/h"], [], env).filter((p) => p.where.includes("$"));
    expect(moved.map((p) => [p.agent, p.path])).toEqual([
      ["gemini-cli", "/g/.gemini/GEMINI.md"],
      ["opencode", "/h/oc/AGENTS.md"],
    ]);
    const relative = { GEMINI_CLI_HOME: "g", OPENCODE_CONFIG_DIR: "oc" };
    expect(globalInstructionPlaces(["/h"], [], relative).some((p) => p.where.includes("$"))).toBe(
      false,
    );
  });

  it.each([
    ["GEMINI_CLI_HOME", "gh", ".gemini/GEMINI.md"],
    ["OPENCODE_CONFIG_DIR", "oc", "AGENTS.md"],
    ["OPENCODE_CONFIG_DIR", "oc", "prompts/review.md"],
  ])("$%s (%s/%s): refused untrusted, --force or not", async (variable, folder, file) => {
    const root = setup();
    const env = { [variable]: join(root, folder) };
    const target = join(root, folder, file);
    for (const force of [[], ["--force"]]) {
      const run = await inClone(root, ["render", "--untrusted", ...force, "-o", target], env);
      expect([force, run.code]).toEqual([force, 2]);
      expect(run.stderr).toContain("--force does not write an untrusted project's prompt");
      expect(existsSync(target)).toBe(false);
    }
  });

  it.each([
    ["GEMINI_CLI_HOME", "gh/.gemini/GEMINI.md", "@../../notes/team.md"],
    ["OPENCODE_CONFIG_DIR", "oc/AGENTS.md", "@../notes/team.md"],
  ])("a file $%s's instructions file imports is yours", async (variable, file, line) => {
    const root = setup();
    writeFileSync(join(root, file), `Mine.\n${line}\n`);
    const env = { [variable]: join(root, file.split("/")[0] ?? "") };
    const target = join(root, "notes/team.md");
    const run = await inClone(root, ["render", "--untrusted", "-o", target], env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("a file an instructions file of yours imports");
    expect(existsSync(target)).toBe(false);
  });

  it("the same folders, named by no variable: written", async () => {
    const root = setup();
    const target = join(root, "oc/AGENTS.md");
    const run = await inClone(root, ["render", "--untrusted", "--force", "-o", target], {});
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(target, "utf8")).toContain(REPO);
  });
});
