import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { coreBareSync, coreWorktreeSync } from "../../src/repo-files/git-file.js";
import { createPromptSession } from "../../src/session/index.js";
import { tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";
import { buildLayout } from "./_fixture.js";

// Review rev68b F1 (high): a project whose `.git` is a file naming an in-tree git folder
// (`gitdir: .gitstore`), an import (or a link) into a folder holding a `.git` of its own, and
// in `.gitstore/config` one `[core]` line of `a` x 250,000, `=`, U+2028, `x`. The nested-clone
// check reads that config's `core.worktree` (coreWorktreeSync), and its line regex
// `^([A-Za-z][A-Za-z0-9-]*)\s*(=?)(.*)$` backtracked over every length of the key (`.` stops at
// U+2028, `$` fails): `render --deadline 1000` spent 49 s of CPU, untrusted too, and `hook
// gemini-cli` 12 s past its 5 s. The line is now split by hand: linear. Here 120,000 (11 s a
// render before); each bound is many times the idle figure (~0.1 s).
const K = 120_000;
const SLOW_LINE = `${"a".repeat(K)}=\u2028x`;

async function project(config: string): Promise<{ home: string; cwd: string }> {
  const base = tempDir();
  await buildLayout(base, "git-config-long-line", [
    ["home/.pi/agent/AGENTS.md", "MY-OWN-RULE\n"],
    ["p/.git", "gitdir: .gitstore\n"],
    ["p/.gitstore/HEAD", "ref: refs/heads/main\n"],
    ["p/.gitstore/objects", { dir: true }],
    ["p/.gitstore/refs/heads", { dir: true }],
    ["p/.gitstore/config", config],
    ["p/AGENTS.md", "Project rules.\n\n@pkg/notes.md\n"],
    ["p/pkg/.git", "gitdir: ../.gitstore/modules/pkg\n"],
    ["p/pkg/notes.md", "PKG-NOTES\n"],
    ["p/docs/AGENTS.md", "Docs rules.\n\n@../pkg/notes.md\n"],
    ["p/docs/x.ts", "x\n"],
  ]);
  return { home: join(base, "home"), cwd: join(base, "p") };
}

describe("hostile repository: a long line in an in-tree git config is read in linear time", () => {
  for (const trusted of [true, false]) {
    it(`render, ${trusted ? "trusted" : "untrusted"}: under 2 s of CPU, the same prompt as a short config`, async () => {
      const slow = await project(`[core]\n${SLOW_LINE}\n`);
      const { cpuMs, value } = await cpuTimed(() =>
        renderSystemPrompt({
          cwd: slow.cwd,
          home: slow.home,
          agentDir: join(slow.home, ".pi", "agent"),
          projectTrusted: trusted,
          deadlineMs: 10_000,
        }),
      );
      expect(cpuMs).toBeLessThan(2000);
      const plain = await project("[core]\n\tbare = false\n");
      const control = await renderSystemPrompt({
        cwd: plain.cwd,
        home: plain.home,
        agentDir: join(plain.home, ".pi", "agent"),
        projectTrusted: trusted,
        deadlineMs: 10_000,
      });
      expect(value.text).toContain("MY-OWN-RULE");
      expect(value.text).toContain("Project rules.");
      expect(value.text.includes("PKG-NOTES")).toBe(control.text.includes("PKG-NOTES"));
    });
  }

  it("a touched file's context (the hook's path): under 2 s of CPU", async () => {
    const { home, cwd } = await project(`[core]\n${SLOW_LINE}\n`);
    const session = createPromptSession({ cwd, home, agentDir: join(home, ".pi", "agent") });
    try {
      const { cpuMs, value } = await cpuTimed(() =>
        session.contextFor([join(cwd, "docs", "x.ts")]),
      );
      expect(cpuMs).toBeLessThan(2000);
      expect(value.files.map((f) => f.content).join("\n")).toContain("Docs rules.");
    } finally {
      session.close();
    }
  });

  // The reader alone, on 120 KB lines: a key run before `=` and U+2028, blanks between a key
  // and U+2028, and `worktree` with a U+2028 in its value (git reads that byte as part of the
  // path; it was skipped, now unsure).
  const LINES: [string, string, string | null | "unsure"][] = [
    ["a key run, `=`, U+2028", `${"a".repeat(K)}=\u2028x`, null],
    ["a key run, U+2029", `${"a".repeat(K)}\u2029x`, null],
    ["bare, blanks, U+2028", `bare${" ".repeat(K)}\u2028x`, null],
    ["worktree, blanks, U+2028", `worktree${" ".repeat(K)}\u2028x`, "unsure"],
    ["worktree = a path holding U+2028", `worktree = ../${"a".repeat(K)}\u2028x`, "unsure"],
  ];
  for (const [what, line, worktree] of LINES) {
    it(`coreWorktreeSync on ${what}: under 0.5 s, ${JSON.stringify(worktree)}`, async () => {
      const dir = tempDir();
      writeFileSync(join(dir, "config"), `[core]\n\t${line}\n`);
      const { cpuMs, value } = await cpuTimed(() => [coreWorktreeSync(dir), coreBareSync(dir)]);
      expect(cpuMs).toBeLessThan(500);
      expect(value[0]).toBe(worktree);
      expect(value[1]).toBe(line.startsWith("bare") ? "unsure" : false);
    });
  }
});
