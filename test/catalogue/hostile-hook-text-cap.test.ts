import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HookAgent } from "../../src/hook/input.js";
import { runHook } from "../../src/hook/run.js";
import { tempDir } from "../api/_helpers.js";

// Claude Code keeps 10,000 characters of a hook's additional context; past
// that the model gets a 2 KB preview and a file path (Codex: 2,500 tokens,
// a head, a tail and the path). The hook put the repository's nested files
// first, so a 14 KB GEMINI.md beside the CLAUDE.md Claude Code reads put the
// user's glob rule at character 14,480 of 14,526, past the preview, and the
// rule was marked given for the session (review rev36d, low-medium). Your
// files now come first, and what does not fit is not given: a file that fits
// on its own comes with a later call, one larger than the cap is cut to it.

const LINE = "Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n";

function project(files: Record<string, string>) {
  const root = tempDir();
  const all: Record<string, string> = {
    "p/.git/HEAD": "ref: refs/heads/main\n",
    "p/pkg/sub/x.ts": "export const x = 1;\n",
    "home/.pi/agent/rules/ts.md":
      '---\nglobs: "**/*.ts"\ndescription: ts rule\n---\nUSER-GLOB-RULE: strict types.\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const cwd = join(root, "p");
  const where = { env: { XDG_CACHE_HOME: join(root, "cache") }, home: join(root, "home") };
  const call = async (agent: HookAgent) => {
    const input =
      agent === "gemini-cli"
        ? {
            // The one result Gemini CLI cuts, and so the one its text is held for.
            hook_event_name: "AfterTool",
            tool_name: "run_shell_command",
            tool_input: { command: "cat pkg/sub/x.ts" },
          }
        : agent === "codex"
          ? {
              hook_event_name: "PostToolUse",
              tool_name: "Bash",
              tool_input: { command: "cat ./pkg/sub/x.ts" },
            }
          : {
              hook_event_name: "PostToolUse",
              tool_name: "Read",
              tool_input: { file_path: join(cwd, "pkg/sub/x.ts") },
            };
    const { reply } = await runHook(
      agent,
      JSON.stringify({ session_id: "s", cwd, ...input }),
      where,
    );
    return reply.trim() === "" || reply.trim() === "{}"
      ? ""
      : (JSON.parse(reply).hookSpecificOutput.additionalContext as string);
  };
  return { call };
}

describe("hostile repository: the hook's text fits what the agent keeps of it", () => {
  it("a 14 KB GEMINI.md: your glob rule first, the file cut to fit", async () => {
    const { call } = project({
      "p/pkg/sub/CLAUDE.md": "# sub\n",
      "p/pkg/sub/GEMINI.md": `# Gemini notes\n\n${LINE.repeat(250)}`,
    });
    const text = await call("claude-code");
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text.indexOf("USER-GLOB-RULE")).toBeGreaterThan(-1);
    expect(text.indexOf("USER-GLOB-RULE")).toBeLessThan(text.indexOf("GEMINI.md"));
    expect(text).toMatch(/bytes more of this file left out/);
    // Cut because it is larger than the cap alone: given, not sent again.
    expect(await call("claude-code")).toBe("");
  });

  it("files that fit one at a time: the one left out comes with the next call", async () => {
    const big = `${LINE.repeat(100)}`;
    const { call } = project({
      "p/pkg/AGENTS.md": `PKG-MARK\n${big}`,
      "p/pkg/sub/AGENTS.md": `SUB-MARK\n${big}`,
    });
    const first = await call("codex");
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(10_000);
    expect(first).toContain("USER-GLOB-RULE");
    const marks = (t: string) => ["PKG-MARK", "SUB-MARK"].filter((m) => t.includes(m));
    expect(marks(first)).toHaveLength(1);
    const second = await call("codex");
    expect(marks(second)).toHaveLength(1);
    expect(new Set([...marks(first), ...marks(second)]).size).toBe(2);
    expect(second).not.toContain("USER-GLOB-RULE");
    expect(await call("codex")).toBe("");
  });

  it("Gemini CLI, a shell command: held to 9,500 characters as it counts them (catalogue/hostile-gemini-hook-text-cap)", async () => {
    const { call } = project({ "p/pkg/sub/AGENTS.md": `# sub\n\n${LINE.repeat(250)}` });
    const text = await call("gemini-cli");
    expect(text.replace(/[<>]/g, "&xx;").length).toBeLessThanOrEqual(9_500);
    expect(text.length).toBeGreaterThan(8_000);
    expect(text.indexOf("USER-GLOB-RULE")).toBeLessThan(200);
  });
});
