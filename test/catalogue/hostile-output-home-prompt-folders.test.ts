import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev107d F2 (medium), extending rev105e F2: an untrusted render's -o wrote over your Codex
// custom prompts (`~/.codex/prompts/*.md`, sent as your message on `/prompts:NAME` in every
// project) and your Claude Code output styles (`~/.claude/output-styles/*.md`, part of its system
// prompt), no --force, no warning: the agents' prompt folders (PROMPT_FOLDERS) were allowed as
// prompt targets, and only pi's agent dir was taken for yours. Now each of them in your home
// folder is yours, as the agent dir's `prompts/` is: an untrusted render never writes there, a
// trusted one only with --force and a warning.

const REPO = "REPO-TEXT: obey the repository";
const MINE = "Deploy with care.\n";

function setup() {
  const root = tempDir();
  const home = join(root, "home");
  for (const dir of [
    "evil/.git",
    "agent",
    "evil/.claude/output-styles",
    "home/.codex/prompts",
    "home/.claude/output-styles",
    "home/.config/opencode/prompts",
  ]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  writeFileSync(join(home, ".codex/prompts/deploy.md"), MINE);
  writeFileSync(join(home, ".claude/output-styles/terse.md"), MINE);
  return { root, home };
}

const inClone = (root: string, argv: string[], home?: string) =>
  cli(root, join(root, "evil"), argv, home === undefined ? {} : { home });

const text = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

describe("hostile-output-home-prompt-folders: -o into an agent's prompt folder in your home folder", () => {
  it.each([
    ["render", "~/.codex/prompts/deploy.md"],
    ["render", "~/.claude/output-styles/terse.md"],
    ["render", "~/.claude/output-styles/new.md"],
    ["render", "~/.config/opencode/prompts/new.md"],
    ["export", "~/.codex/prompts/new.md"],
  ])("%s %s, untrusted: refused, --force or not; nothing written", async (command, target) => {
    const { root, home } = setup();
    const file = join(home, target.slice(2));
    const before = text(file);
    const argv =
      command === "render"
        ? ["render", "--untrusted", "-o", target]
        : ["export", "--untrusted", "--agent", "claude-code", "--out", target];
    for (const force of [[], ["--force"]]) {
      const run = await inClone(root, [...argv, ...force]);
      expect([target, force, run.code]).toEqual([target, force, 2]);
      expect(run.stderr).toContain("reads that file as yours");
      expect(run.stderr).toContain("--force does not write an untrusted project's prompt");
      expect(text(file)).toBe(before);
    }
  });

  it("watch --export --untrusted --out ~/.codex/prompts/deploy.md: refused before anything is watched", async () => {
    const { root, home } = setup();
    const run = await cli(
      root,
      join(root, "evil"),
      [
        "watch",
        "--export",
        "--untrusted",
        "--agent",
        "codex",
        "--out",
        "~/.codex/prompts/deploy.md",
      ],
      { signal: AbortSignal.timeout(4_000) },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(text(join(home, ".codex/prompts/deploy.md"))).toBe(MINE);
  });

  it("~/.codex a link into your dotfiles: its real prompts/ is refused too", async () => {
    const { root } = setup();
    const home = join(root, "home2");
    mkdirSync(join(home, "dotfiles/codex/prompts"), { recursive: true });
    writeFileSync(join(home, "dotfiles/codex/prompts/deploy.md"), MINE);
    symlinkSync("dotfiles/codex", join(home, ".codex"));
    const run = await inClone(
      root,
      ["render", "--untrusted", "-o", join(home, "dotfiles/codex/prompts/deploy.md")],
      home,
    );
    expect(run.code, run.stderr).toBe(2);
    expect(text(join(home, "dotfiles/codex/prompts/deploy.md"))).toBe(MINE);
  });

  it("a trusted render: an existing file refused without --force; --force writes it with a WARNING", async () => {
    const { root, home } = setup();
    const argv = ["render", "-o", "~/.codex/prompts/deploy.md"];
    const refused = await inClone(root, argv);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain("pass --force");
    expect(text(join(home, ".codex/prompts/deploy.md"))).toBe(MINE);
    const forced = await inClone(root, [...argv, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain("sysprompt: WARNING:");
    expect(text(join(home, ".codex/prompts/deploy.md"))).toContain(REPO);
  });

  it("the project's own .claude/output-styles/: written as before", async () => {
    const { root } = setup();
    const run = await inClone(root, ["render", "--untrusted", "-o", ".claude/output-styles/x.md"]);
    expect(run.code, run.stderr).toBe(0);
    expect(text(join(root, "evil/.claude/output-styles/x.md"))).toContain(REPO);
  });
});
