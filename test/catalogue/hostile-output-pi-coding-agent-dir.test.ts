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
// yours to the -o checks (`yourAgentDirs`).

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
});
