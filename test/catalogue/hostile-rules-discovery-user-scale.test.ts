import { setMaxListeners } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadRules, renderSystemPrompt } from "../../src/index.js";
import { sessionContextFor } from "../../src/session/touch.js";
import { pinned, tempDir } from "../api/_helpers.js";

// The rule-files step found every rules folder, the user's and the
// repository's together, then read them all, then parsed the user's first.
// A repository whose rules folders take the whole deadline to list (seven
// locations linked to one folder of 100 x 1,999 files: `render --untrusted
// --deadline 1000`) left the step nothing of the user's, untrusted too: the
// user's always rule was out of the prompt, `loadRules()` gave none, and the
// hook never gave the user's glob rule (every call waited its 5 s). The
// user's own rule files are now found, read and parsed before any of the
// repository's folders is looked at, and the touch path's rule trace has half
// the deadline, so the touched paths' pass still has time to give them.

/**
 * The repository's rules folders are still being listed when the trace's
 * deadline fires (then it stops with the signal's reason), as seven links to
 * one folder of 200,000 files are on a loaded machine. Only the trace's own
 * look-ups at the project root, with a signal, are slowed.
 */
vi.mock("../../src/gather/rules/discover.js", async (importOriginal) => {
  const discover = await importOriginal<typeof import("../../src/gather/rules/discover.js")>();
  type Rest = Parameters<typeof discover.findRuleFiles> extends [unknown, ...infer R] ? R : never;
  return {
    ...discover,
    findRuleFiles: (base: string, ...rest: Rest) => {
      const signal = rest[2];
      if (!base.endsWith("/project") || signal === undefined) {
        return discover.findRuleFiles(base, ...rest);
      }
      return new Promise<never>((_, fail) => {
        if (signal.aborted) return fail(signal.reason);
        // One waiter a rule location of the project: more than Node's 10 by design.
        setMaxListeners(0, signal);
        signal.addEventListener("abort", () => fail(signal.reason), { once: true });
      });
    },
  };
});

const USER_RULE = "Never push to main without asking me.";
const USER_GLOB_RULE = "Type every exported function.";

function fixture(): { root: string; agentDir: string } {
  const root = tempDir();
  const agentDir = join(root, "home", ".pi", "agent");
  const files: Record<string, string> = {
    "home/.pi/agent/rules/own.md": `---\nalwaysApply: true\n---\n${USER_RULE}\n`,
    "home/.pi/agent/rules/ts.md": `---\nglobs: "**/*.ts"\n---\n${USER_GLOB_RULE}\n`,
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/.cursor/rules/r.mdc": "---\nalwaysApply: true\n---\nThe repository's rule.\n",
    "project/src/a.ts": "export const a = 1;\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, agentDir };
}

describe("hostile repository: rules folders slow to find do not take the user's rules out", () => {
  it("a rule-files step late on the repository's folders keeps the user's always rule", async () => {
    const { root, agentDir } = fixture();
    const options = { projectTrusted: false, agentDir };
    // What every render loads first, so the deadline is the rules'.
    await renderSystemPrompt(pinned(tempDir(), { ...options, deadlineMs: 1000 }));
    const result = await renderSystemPrompt(pinned(root, { ...options, deadlineMs: 500 }));
    const late = result.diagnostics.find((d) => d.code === "step-timeout");
    expect(late?.message).toContain('"rule-files"');
    expect(result.text).toContain(USER_RULE);
    expect(result.text).not.toContain("The repository's rule.");
  });

  it("loadRules() without a signal keeps the user's rules past its default deadline", async () => {
    const { root, agentDir } = fixture();
    const loaded = await loadRules({
      cwd: join(root, "project"),
      home: join(root, "home"),
      agentDir,
      projectTrusted: false,
    });
    expect(loaded.diagnostics.map((d) => d.code)).toContain("load-deadline");
    expect(loaded.rules.map((r) => r.content).sort()).toEqual([USER_GLOB_RULE, USER_RULE].sort());
  }, 15_000);

  it("a touched file's pass still gives the user's glob rule when the trace is late", async () => {
    const { root, agentDir } = fixture();
    const cwd = join(root, "project");
    const got = await sessionContextFor(
      [join(cwd, "src", "a.ts")],
      { cwd, home: join(root, "home"), agentDir, projectTrusted: false, deadlineMs: 1000 },
      new Map(),
      { delivered: new Set(), overrides: {}, wrappers: [] },
    );
    expect(got.diagnostics.map((d) => d.code)).toContain("touch-deadline");
    expect(got.files.map((f) => f.content).join("\n")).toContain(USER_GLOB_RULE);
  });
});
