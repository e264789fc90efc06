import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { createPromptSession } from "../../src/session/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Review rev53a F2 (low): `--untrusted` read rule files found at their format's own place that
// git ignores (`.cursorrules`, `.cursor/rules/secret.mdc`), that your `.git/info/exclude` or your
// global excludes name (`.roo/rules/local-excl.md`, `.roo/rules/mine-global.txt`), and hidden
// files below a rules folder (`.roo/rules/.env`, `.roo/rules/.hid/x.md`), with no word; and on
// touch an untrusted session gave `.hid/AGENTS.md`. The promise: an untrusted project brings no
// hidden, git-ignored or your-excluded file into the prompt. Now each is `rule-refused` (render)
// or `context-ignored` (touch), naming why.

const PRIVATE = /PRIV-[A-Z-]+/g;
const always = (marker: string) => `---\nalwaysApply: true\n---\n${marker}\n`;

function layout(): { root: string; home: string; repo: string } {
  const root = tempDir();
  writeFiles(root, {
    "agent/AGENTS.md": "MY-RULES\n",
    "home/.config/git/ignore": "mine-global.txt\n",
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/.git/info/exclude": "local-excl.md\n",
    "project/.gitignore": "*.local.mdc\nsecret*\n.cursorrules\nAGENTS.local.md\n",
    // Yours, kept out of git by design (Roo's, as Claude Code's CLAUDE.local.md): read.
    "project/AGENTS.local.md": "OK-AGENTS-LOCAL\n",
    "project/.cursorrules": "PRIV-CURSORRULES\n",
    "project/.cursor/rules/x.local.mdc": always("PRIV-CURSOR-LOCAL"),
    "project/.cursor/rules/secret.mdc": always("PRIV-CURSOR-SECRET"),
    "project/.cursor/rules/ok.mdc": always("OK-CURSOR"),
    "project/.roo/rules/.env": "PRIV-ROO-DOTFILE\n",
    "project/.roo/rules/.hid/x.md": "PRIV-ROO-HIDDEN\n",
    "project/.roo/rules/local-excl.md": "PRIV-ROO-EXCL\n",
    "project/.roo/rules/mine-global.txt": "PRIV-ROO-GLOBAL\n",
    "project/.roo/rules/sub/ok.md": "OK-ROO\n",
    "project/.hid/AGENTS.md": "PRIV-HID-AGENTS\n",
    "project/.hid/f.ts": "",
    "project/ok/AGENTS.md": "OK-NESTED\n",
    "project/ok/f.ts": "",
  });
  return { root, home: join(root, "home"), repo: join(root, "project") };
}

describe("hostile-untrusted-rules-private: --untrusted reads no ignored, your-excluded or hidden rule file", () => {
  it("render --untrusted: each private rule file refused, naming why; the others read", async () => {
    const { root, home, repo } = layout();
    const r = await renderSystemPrompt({
      cwd: repo,
      home,
      agentDir: join(root, "agent"),
      projectTrusted: false,
    });
    expect(r.text.match(PRIVATE) ?? []).toEqual([]);
    expect(r.text).toContain("OK-CURSOR");
    expect(r.text).toContain("OK-ROO");
    expect(r.text).toContain("OK-AGENTS-LOCAL");
    const refused = r.diagnostics
      .filter((d) => d.code === "rule-refused")
      .map((d) => d.message.split(" and ")[1])
      .sort();
    expect(refused).toEqual([
      ".cursor/rules/secret.mdc is ignored by git; trust the project to read it",
      ".cursor/rules/x.local.mdc is ignored by git; trust the project to read it",
      ".cursorrules is ignored by git; trust the project to read it",
      ".roo/rules/.env is hidden (a name that starts with a dot); trust the project to read it",
      ".roo/rules/.hid/x.md is hidden (a name that starts with a dot); trust the project to read it",
      ".roo/rules/local-excl.md is ignored by git; trust the project to read it",
      ".roo/rules/mine-global.txt is ignored by your global git excludes; trust the project to read it",
    ]);
  });

  it("render, trusted: the project's rule files are its own, as before", async () => {
    const { root, home, repo } = layout();
    const r = await renderSystemPrompt({
      cwd: repo,
      home,
      agentDir: join(root, "agent"),
      projectTrusted: true,
    });
    expect(r.text).toContain("PRIV-ROO-DOTFILE");
    expect(r.text).toContain("PRIV-CURSOR-SECRET");
  });

  it("touch in an untrusted session: a hidden folder's AGENTS.md is not given", async () => {
    const { root, home, repo } = layout();
    const session = createPromptSession({
      cwd: repo,
      home,
      agentDir: join(root, "agent"),
      projectTrusted: false,
    });
    try {
      const r = await session.contextFor([join(repo, ".hid", "f.ts"), join(repo, "ok", "f.ts")]);
      const given = r.files.map((f) => f.content).join("\n");
      expect(given.match(PRIVATE) ?? []).toEqual([]);
      expect(given).toContain("OK-NESTED");
      const ignored = r.diagnostics.filter((d) => d.code === "context-ignored");
      expect(ignored.map((d) => d.path)).toEqual([join(repo, ".hid", "AGENTS.md")]);
    } finally {
      session.close();
    }
  });
});
