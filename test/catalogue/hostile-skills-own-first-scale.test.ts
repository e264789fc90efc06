import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// rev48a F1: cut47 made the steps that read the repository (its layer, git) wait for your
// AGENTS.md only. A trusted project's 300 sections of dense YAML frontmatter (62 ms of parsing
// each, one turn of the event loop between two files) then left the skills step one turn a file
// to read YOUR skills folder, and at the default deadline (render 3 s, library 5 s) all 20 of
// your skills were out of the prompt. The layer and git steps now also wait (one gate, 250 ms at
// most) for the user part of the skills and rule-files steps. Here the project layer's loading
// holds the loop 60 ms a file, a turn between two, as those sections did, until the deadline.

const FILE_MS = 60;
const SKILLS = 20;
const busy = vi.hoisted(() => ({ on: false }));

vi.mock("../../src/locate/load-layer.js", async (importOriginal) => {
  const layers = await importOriginal<typeof import("../../src/locate/load-layer.js")>();
  return {
    ...layers,
    loadLayer: async (...args: Parameters<typeof layers.loadLayer>) => {
      const signal = args[2].signal;
      if (args[1] === "project" && busy.on) {
        // The repository's sections, parsed one by one, the signal heard between two.
        for (let file = 0; file < 300 && signal?.aborted !== true; file++) {
          await new Promise((done) => setImmediate(done));
          const until = performance.now() + FILE_MS;
          while (performance.now() < until) {
            // one section's frontmatter
          }
        }
      }
      return layers.loadLayer(...args);
    },
  };
});

function fixture() {
  const root = tempDir();
  const files: Record<string, string> = {
    "home/.pi/agent/AGENTS.md": "USER-AGENTS-MD-MARKER: always be careful.\n",
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/.pi/sections/s0.md": "---\norder: 10\n---\nrepo\n",
  };
  for (let i = 0; i < SKILLS; i++) {
    files[`home/.pi/agent/skills/my${i}/SKILL.md`] =
      `---\nname: my${i}\ndescription: USER-SKILL-${i} does things\n---\nbody\n`;
  }
  writeFiles(root, files);
  return {
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "home/.pi/agent"),
  };
}

describe("hostile repository: a project whose layer starves the loop does not push your skills out", () => {
  it("your skills are in the prompt when the project step misses the deadline", async () => {
    const paths = fixture();
    // Warm: modules loaded and the builtin templates compiled, as in a session's later render.
    await renderSystemPrompt(paths);
    busy.on = true;
    const r = await renderSystemPrompt({ ...paths, deadlineMs: 1500 }).finally(() => {
      busy.on = false;
    });
    expect(r.diagnostics.find((d) => d.code === "step-timeout")?.message).toContain("project");
    expect(r.text).toContain("USER-AGENTS-MD-MARKER");
    const yours = new Set(r.text.match(/USER-SKILL-\d+/g) ?? []);
    expect(yours.size).toBe(SKILLS);
  }, 20_000);
});
