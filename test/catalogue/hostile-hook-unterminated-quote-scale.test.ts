import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHook } from "../../src/hook/run.js";
import { shellWords, splitShell } from "../../src/touch/shell-paths.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Review rev80b (fx80b's recorded limit): a shell command's words were read up
// to an unterminated quote and not after it, so the paths it named there were
// neither given nor counted: `git commit -m "$(cat <<'EOF'` with a `"` in its
// text (the quote closes early as read here, and the last one is left open),
// then `&& sed -i … src/f1.c … late.txt`: your rule for late.txt never came,
// and the 17th path was not said. An unterminated quote now makes its own word
// special (no path), and the rest is read on as words: given, counted and cut
// as the others (`splitShell`, which the pi extension and the hook read through).

const LATE_RULE = '---\nglobs: "**/late.txt"\n---\nLATE-RULE: read me.\n';

function project(files: Record<string, string>) {
  const root = tempDir();
  writeFiles(root, { "p/.git/HEAD": "ref: refs/heads/main\n", ...files });
  const cwd = join(root, "p");
  const where = { env: { XDG_CACHE_HOME: join(root, "cache") }, home: join(root, "home") };
  let n = 0;
  const call = async (command: string) => {
    n++;
    const out = await runHook(
      "claude-code",
      JSON.stringify({
        session_id: `q${n}`,
        cwd,
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command },
      }),
      where,
    );
    return { reply: out.reply, note: out.note ?? "" };
  };
  return { cwd, call };
}

/** A commit message of a heredoc inside `"$(…)"` whose text holds one `"`: read here, the last quote is left open. */
const COMMIT = `git commit -q -m "$(cat <<'EOF'\nSay "hi to the team\nEOF\n)"`;

describe("hostile repository: paths after an unterminated quote are read and counted", () => {
  it("words after an unterminated quote are read as the others; the quote's own word is none", () => {
    const rel = { relative: true };
    expect(shellWords("cat a.ts 'b.ts c.ts", "/p", "/h", rel).map((w) => w.abs)).toEqual([
      "/p/a.ts",
      "/p/c.ts",
    ]);
    expect(shellWords(`echo "$(cat a.md b.md`, "/p", "/h", rel).map((w) => w.abs)).toEqual([
      "/p/a.md",
      "/p/b.md",
    ]);
    expect(shellWords(`${COMMIT} && cat src/b.md`, "/p", "/h", rel).map((w) => w.word)).toEqual([
      "src/b.md",
    ]);
  });

  it("hook-unterminated-quote: the path after it is given, the 17th is said", async () => {
    const files: Record<string, string> = {
      "home/.pi/agent/rules/late.md": LATE_RULE,
      "p/late.txt": "b\n",
    };
    for (let i = 1; i <= 16; i++) files[`p/src/f${i}.c`] = "x\n";
    const { call } = project(files);
    const given = await call(`${COMMIT} && sed -i s/a/b/ late.txt`);
    expect(given.reply).toContain("LATE-RULE");
    const names = Array.from({ length: 16 }, (_, i) => `src/f${i + 1}.c`).join(" ");
    const { note } = await call(`${COMMIT} && sed -i s/a/b/ ${names} late.txt`);
    expect(note).toMatch(
      /1 more path of this call not looked at \(a command for its first 16 paths\)/,
    );
  });

  it("many unterminated quotes cost one scan of each kind: linear", () => {
    const started = performance.now();
    // Each kind is looked for once: past the first unterminated one, a quote of its kind is text.
    const words = splitShell(`"${" '".repeat(1_000_000)}`, 1_000_000);
    const took = performance.now() - started;
    expect(words.length).toBeGreaterThan(1000);
    // This machine ~0.1 s; a rescan from each quote would be minutes.
    expect(took).toBeLessThan(10_000);
  });
});
