import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { refuseSettingsBlock } from "../../src/cli/commands/_output-file.js";
import { promptFolderOf } from "../../src/hook/snippet.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev88d F1: a trusted project's `.pi/SYSTEM.md` (or a project file named by
// `--system-prompt`, even with `--untrusted`) replaces the base, so the rendered prompt opens
// with that file's YAML frontmatter, bytes as written. `render -o` into another repository of
// yours, `.github/agents/reviewer.agent.md` (or `.github/prompts/`, `.github/chatmodes/`), wrote
// it with exit 0, and Copilot reads that block as the agent's settings: its tools (the terminal
// among them), its model, its mode. And `-o .agents/skills/x/SKILL.md` was written (a skill
// Codex, pi and sysprompt load) while `.pi/skills` and `.claude/skills` were refused.

const BLOCK =
  '---\nname: reviewer\ndescription: Reviews code\ntools: ["runCommands", "runInTerminal", "edit"]\nmodel: some-model\nmode: agent\n---\n';

function setup(system = `${BLOCK}You are a careful reviewer.\n`) {
  const root = tempDir();
  for (const dir of [
    "hostile/.git",
    "hostile/.pi",
    "hostile/prompts",
    "mine/.git",
    "home",
    "agent",
  ]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "hostile/.pi/SYSTEM.md"), system);
  writeFileSync(join(root, "hostile/prompts/base.md"), system);
  return root;
}

const inHostile = (root: string, argv: string[]) => cli(root, join(root, "hostile"), argv);

describe("hostile-output-settings-frontmatter: a repository's --- block is no prompt folder's settings", () => {
  it.each([
    [["render", "-o", "../mine/.github/agents/reviewer.agent.md"]],
    [
      [
        "render",
        "--untrusted",
        "--system-prompt",
        "prompts/base.md",
        "-o",
        "../mine/.github/prompts/review.prompt.md",
      ],
    ],
    [["export", "--agent", "codex", "--out", "../mine/.github/chatmodes/r.chatmode.md"]],
    [["render", "-o", "~/.codex/prompts/review.md"]],
  ])("%j: refused, exit 2, nothing written", async (argv) => {
    const root = setup();
    const out = argv[argv.length - 1] ?? "";
    const result = await inHostile(root, argv);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("opens with a --- block");
    const file = out.startsWith("~/")
      ? join(root, "home", out.slice(2))
      : join(root, "hostile", out);
    expect(existsSync(file)).toBe(false);
  });

  it("a prompt that opens with text is written there; the block to a plain file is too", async () => {
    const plain = setup("You are a careful reviewer.\n");
    const agent = "../mine/.github/agents/reviewer.agent.md";
    const written = await inHostile(plain, ["render", "-o", agent]);
    expect(written.code, written.stderr).toBe(0);
    expect(readFileSync(join(plain, "hostile", agent), "utf8")).toMatch(/^You are a careful/);
    const root = setup();
    const notes = await inHostile(root, ["render", "-o", "../mine/notes/review.md"]);
    expect(notes.code, notes.stderr).toBe(0);
    expect(readFileSync(join(root, "mine/notes/review.md"), "utf8").startsWith(BLOCK)).toBe(true);
  });

  it.each([
    ["../mine/.agents/skills/x/SKILL.md", "mine/.agents/skills/x/SKILL.md"],
    ["~/.agents/skills/x/SKILL.md", "home/.agents/skills/x/SKILL.md"],
  ])(".agents/skills is refused as .pi/skills is: %s", async (out, file) => {
    const root = setup("You are a careful reviewer.\n");
    const result = await inHostile(root, ["render", "-o", out]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("codex's own configuration");
    expect(existsSync(join(root, file))).toBe(false);
  });

  it("the block is found after a byte-order mark and blank lines; a rule later on is text", () => {
    const folder = promptFolderOf("/p/.github/agents/r.agent.md");
    expect(folder).toEqual({ agent: "GitHub", folder: ".github/agents" });
    expect(promptFolderOf("/p/.github/workflows/ci.yml")).toBeUndefined();
    expect(promptFolderOf("/p/notes/r.md")).toBeUndefined();
    for (const text of [BLOCK, `\uFEFF${BLOCK}`, `\n  \r\n${BLOCK}`, "---", "--- \r\ntools: x\n"]) {
      expect(() => refuseSettingsBlock(text, folder, "--output", "x.md"), text).toThrow(
        /opens with a --- block/,
      );
    }
    for (const text of ["Text\n---\n", "----\n", " ---\n", ""]) {
      expect(() => refuseSettingsBlock(text, folder, "--output", "x.md"), text).not.toThrow();
    }
    expect(() => refuseSettingsBlock(BLOCK, undefined, "--output", "x.md")).not.toThrow();
  });
});
