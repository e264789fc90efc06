import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { yourAgentDirs } from "../../src/locate/layers.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev107e F3 (medium): with pi's agent dir named by `$PI_CODING_AGENT_DIR`, an untrusted
// `render --untrusted --force -o` wrote its `APPEND_SYSTEM.md` (even without --force),
// `SYSTEM.md` and `prompts/review.md`: the checks of -o judged only the agent dir sysprompt's
// render resolves (`--agent-dir`, `$SYSPROMPT_AGENT_DIR`, `~/.pi/agent`), while pi loads the
// folder `$PI_CODING_AGENT_DIR` names. Now every agent dir pi or sysprompt would resolve is
// yours to the -o checks (`yourAgentDirs`). The same for the agents' folders their variables
// move (`MOVED_INSTRUCTION_PLACES`): `$CLAUDE_CONFIG_DIR`'s `CLAUDE.md` and `rules/`,
// `$CODEX_HOME`'s `AGENTS.md`, `$XDG_CONFIG_HOME/opencode/AGENTS.md`, and the files they import.

const REPO = "REPO-TEXT: obey the repository";

function setup() {
  const root = tempDir();
  for (const dir of ["evil/.git", "home", "pi-agent/prompts"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  return root;
}

const inClone = (root: string, argv: string[], env: Record<string, string>) =>
  cli(root, join(root, "evil"), [...argv, "--now", NOW], { pinned: false, env });

describe("hostile-output-pi-coding-agent-dir: -o into the agent dir $PI_CODING_AGENT_DIR names", () => {
  it("yourAgentDirs lists the render's, pi's and the default agent dir", () => {
    const env = { PI_CODING_AGENT_DIR: "~/pi", SYSPROMPT_AGENT_DIR: "/srv/agent" };
    expect(yourAgentDirs({ env, home: "/h", cwd: "/w" })).toEqual([
      "/srv/agent",
      "/h/pi",
      "/h/.pi/agent",
    ]);
    expect(yourAgentDirs({ env: { PI_CODING_AGENT_DIR: "rel" }, home: "/h", cwd: "/w" })).toEqual([
      "/h/.pi/agent",
    ]);
  });

  it.each(["APPEND_SYSTEM.md", "SYSTEM.md", "prompts/review.md"])(
    "%s: refused untrusted, --force or not",
    async (file) => {
      const root = setup();
      const env = { PI_CODING_AGENT_DIR: join(root, "pi-agent") };
      const target = join(root, "pi-agent", file);
      for (const args of [
        ["render", "--untrusted", "-o", target],
        ["render", "--untrusted", "--force", "-o", target],
      ]) {
        const run = await inClone(root, args, env);
        expect([args, run.code]).toEqual([args, 2]);
        expect(run.stderr).toContain("--force does not write an untrusted project's prompt");
        expect(existsSync(target)).toBe(false);
      }
    },
  );

  it("the same folder, named by no variable, is no agent dir: written", async () => {
    const root = setup();
    const target = join(root, "pi-agent", "APPEND_SYSTEM.md");
    const run = await inClone(root, ["render", "--untrusted", "-o", target], {});
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(target, "utf8")).toContain(REPO);
  });

  it.each([
    ["CLAUDE_CONFIG_DIR", "CLAUDE.md"],
    ["CLAUDE_CONFIG_DIR", "rules/deep/x.md"],
    ["CODEX_HOME", "AGENTS.md"],
    ["CODEX_HOME", "AGENTS.override.md"],
    ["XDG_CONFIG_HOME", "opencode/AGENTS.md"],
  ])("$%s's %s: refused untrusted, --force or not", async (variable, file) => {
    const root = setup();
    mkdirSync(join(root, "moved/rules/deep"), { recursive: true });
    const env = { [variable]: join(root, "moved") };
    const target = join(root, "moved", file);
    const run = await inClone(root, ["render", "--untrusted", "--force", "-o", target], env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`in the folder $${variable} names`);
    expect(existsSync(target)).toBe(false);
  });

  it("a file $CLAUDE_CONFIG_DIR's rule imports is yours", async () => {
    const root = setup();
    mkdirSync(join(root, "moved/rules"), { recursive: true });
    mkdirSync(join(root, "notes"));
    writeFileSync(join(root, "moved/rules/style.md"), "Mine.\n@../../notes/n.md\n");
    writeFileSync(join(root, "notes/n.md"), "MY\n");
    const env = { CLAUDE_CONFIG_DIR: join(root, "moved") };
    const target = join(root, "notes/n.md");
    const run = await inClone(root, ["render", "--untrusted", "--force", "-o", target], env);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("a file an instructions file of yours imports");
    expect(readFileSync(target, "utf8")).toBe("MY\n");
  });
});
