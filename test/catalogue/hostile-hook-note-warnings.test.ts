import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HookAgent } from "../../src/hook/input.js";
import { runHook } from "../../src/hook/run.js";
import { tempDir } from "../api/_helpers.js";
import { giveAway, IS_ROOT } from "./_nobody.js";

// Review rev79h. F1: the hook's note was the first warning of the call, and a
// repository's config warnings come first in every pass: a committed
// `.pi/sysprompt.yaml` of `bogusKey: 1` hid, on every call, the rewrite of
// your own glob rule (its prompt tag written `&lt;`). F2: paths past a
// patch's 64, a command's 16 or a list's 64 were dropped with nothing said,
// and your rule for the 65th file never came. F5: a glob rule another user
// planted in a world-writable `.cursor/rules` was refused in silence (render
// said `rule-refused`). The note now says every warning, yours first, with
// the count of the rest; each cut is said (`touch-too-many`); the refusal too.

function project(files: Record<string, string>) {
  const root = tempDir();
  const all: Record<string, string> = {
    "p/.git/HEAD": "ref: refs/heads/main\n",
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const cwd = join(root, "p");
  const where = { env: { XDG_CACHE_HOME: join(root, "cache") }, home: join(root, "home") };
  let n = 0;
  const call = async (agent: HookAgent, tool: string, input: Record<string, unknown>) => {
    const event = agent === "gemini-cli" ? "AfterTool" : "PostToolUse";
    n++;
    const out = await runHook(
      agent,
      JSON.stringify({
        session_id: `s${n}`,
        cwd,
        hook_event_name: event,
        tool_name: tool,
        tool_input: input,
      }),
      where,
    );
    return { reply: out.reply, note: out.note ?? "" };
  };
  return { root, cwd, call };
}

const LATE_RULE = '---\nglobs: "**/late.txt"\n---\nLATE-RULE: read me.\n';

describe("hostile repository: the hook's note says every warning, yours first", () => {
  it("hook-note-planted-config: a repository's bogusKey does not hide your rule's rewrite", async () => {
    const { call } = project({
      "home/.pi/agent/rules/mine.md":
        '---\nglobs: "**/*.txt"\n---\nMINE: use <tools> as the placeholder; see <span hidden\n',
      "p/.pi/sysprompt.yaml": "bogusKey: 1\n",
      "p/sub/g.txt": "y\n",
    });
    for (const agent of ["claude-code", "codex"] as const) {
      const { reply, note } = await call(agent, "Bash", { command: "cat sub/g.txt" });
      expect(reply).toContain("MINE:");
      // Yours first, both rewrites of it, then the repository's.
      expect(note).toMatch(/^[^|]*mine\.md: your file's tag "<tools>"/);
      expect(note).toMatch(/mine\.md: ends in markup that hides/);
      expect(note).toMatch(/bogusKey/);
      expect(note.indexOf("bogusKey")).toBeGreaterThan(note.indexOf("mine.md"));
      expect(note).not.toMatch(/\n/);
    }
  });

  it("hook-note-many-warnings: past the note's length the rest is counted", async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `bogusKey${i}: 1`).join("\n");
    const { call } = project({
      "home/.pi/agent/rules/mine.md": '---\nglobs: "**/*.txt"\n---\nMINE: use <tools> here\n',
      "p/.pi/sysprompt.yaml": `${keys}\n`,
      "p/sub/g.txt": "y\n",
    });
    const { note } = await call("claude-code", "Bash", { command: "cat sub/g.txt" });
    expect(note).toMatch(/mine\.md: your file's tag "<tools>"/);
    expect(note).toMatch(/and \d+ more warnings$/);
    expect(note.length).toBeLessThan(1200);
  });
});

describe("hostile repository: paths past a call's caps are said", () => {
  it("hook-cut-patch: a patch's 65th file is said, not dropped in silence", async () => {
    const files: Record<string, string> = { "home/.pi/agent/rules/late.md": LATE_RULE };
    const patch = ["*** Begin Patch"];
    for (let i = 0; i < 64; i++) patch.push(`*** Update File: src/f${i}.c`, "@@", "-a", "+b");
    patch.push("*** Update File: late.txt", "@@", "-a", "+b", "*** End Patch");
    const { call } = project({ ...files, "p/late.txt": "b\n" });
    const { reply, note } = await call("codex", "apply_patch", { command: patch.join("\n") });
    expect(reply).not.toContain("LATE-RULE");
    expect(note).toMatch(
      /1 more path of this call not looked at \(a patch for its first 64 files\)/,
    );
  });

  it("hook-cut-shell: a command's 17th path is said", async () => {
    const files: Record<string, string> = {
      "home/.pi/agent/rules/late.md": LATE_RULE,
      "p/late.txt": "b\n",
    };
    for (let i = 1; i <= 16; i++) files[`p/src/f${i}.c`] = "x\n";
    const { call } = project(files);
    const names = Array.from({ length: 16 }, (_, i) => `src/f${i + 1}.c`).join(" ");
    const { note } = await call("claude-code", "Bash", {
      command: `sed -i s/a/b/ ${names} late.txt`,
    });
    expect(note).toMatch(
      /1 more path of this call not looked at \(a command for its first 16 paths\)/,
    );
    // 16 paths: nothing cut, nothing said of it.
    const few = Array.from({ length: 15 }, (_, i) => `src/f${i + 1}.c`).join(" ");
    const fewer = await call("claude-code", "Bash", { command: `sed -i s/a/b/ ${few} late.txt` });
    expect(fewer.reply).toContain("LATE-RULE");
    expect(fewer.note).not.toMatch(/not looked at/);
  });

  it("hook-cut-list: read_many_files' 65th path is said", async () => {
    const { call, cwd } = project({
      "home/.pi/agent/rules/late.md": LATE_RULE,
      "p/late.txt": "b\n",
    });
    const paths = Array.from({ length: 64 }, (_, i) => join(cwd, `src/f${i}.c`));
    const { note } = await call("gemini-cli", "read_many_files", {
      paths: [...paths, join(cwd, "late.txt")],
    });
    expect(note).toMatch(
      /1 more path of this call not looked at \(a list is read for its first 64\)/,
    );
  });
});

describe("hostile repository: a glob rule the hook refuses is said", () => {
  it.runIf(IS_ROOT)(
    "hook-rule-refused: another user's rule in a world-writable .cursor/rules (needs root)",
    async () => {
      const { call, cwd } = project({
        "p/.cursor/rules/p.mdc": '---\nglobs: "**/*.ts"\n---\nPLANTED-RULE\n',
        "p/src/a.ts": "x\n",
      });
      chmodSync(join(cwd, ".cursor/rules"), 0o777);
      giveAway(join(cwd, ".cursor/rules/p.mdc"));
      const { reply, note } = await call("claude-code", "Read", {
        file_path: join(cwd, "src/a.ts"),
      });
      expect(reply).not.toContain("PLANTED-RULE");
      expect(note).toMatch(/p\.mdc: rule file not read: it belongs to another user/);
    },
  );
});
