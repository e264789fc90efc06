import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HookAgent } from "../../src/hook/input.js";
import { runHook } from "../../src/hook/run.js";
import { SNAPSHOT_MS } from "../../src/hook/snapshot.js";
import {
  MAX_HOOK_SESSIONS,
  MAX_SESSION_KEYS,
  readSession,
  sessionLocation,
  writeSession,
} from "../../src/hook/state.js";
import { tempDir } from "../api/_helpers.js";

const RULE = '---\nglobs: ["pkg/**/*.ts"]\n---\nTypeScript here is strict.\n';

/** A git project with a nested AGENTS.md in pkg/sub and a Cursor glob rule for pkg's .ts files. */
function project(files: Record<string, string> = {}) {
  const root = tempDir();
  const cwd = join(root, "project");
  const all: Record<string, string> = {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "Root rules.\n",
    "project/pkg/sub/AGENTS.md": "Sub rules: no default exports.\n",
    "project/pkg/sub/x.ts": "export const x = 1;\n",
    "project/pkg/sub/y.ts": "export const y = 2;\n",
    "project/.cursor/rules/ts.mdc": RULE,
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, "home"), { recursive: true });
  const where = { env: { XDG_CACHE_HOME: join(root, "cache") }, home: join(root, "home") };
  return { root, cwd, where, cache: join(root, "cache", "sysprompt") };
}

type Where = ReturnType<typeof project>["where"] & { now?: () => number };

function input(
  cwd: string,
  tool: string,
  toolInput: unknown,
  session = "s-1",
  event = "PostToolUse",
) {
  return JSON.stringify({
    session_id: session,
    cwd,
    hook_event_name: event,
    tool_name: tool,
    tool_input: toolInput,
  });
}

/** The additionalContext of a reply, or undefined for the empty reply. */
function added(reply: string): string | undefined {
  if (reply === "" || reply === "{}\n") return undefined;
  return (JSON.parse(reply) as { hookSpecificOutput: { additionalContext: string } })
    .hookSpecificOutput.additionalContext;
}

const BOTH = `Instruction files apply to what this call touched (each given once per session):
<instructions path="pkg/sub/AGENTS.md">
Sub rules: no default exports.

</instructions>
<instructions path=".cursor/rules/ts.mdc" rule="ts">
TypeScript here is strict.

</instructions>`;

/** What Claude Code gets: it reads pkg/sub/AGENTS.md itself when it reads a file there. */
const RULE_ONLY = `An instruction file applies to what this call touched (given once per session):
<instructions path=".cursor/rules/ts.mdc" rule="ts">
TypeScript here is strict.

</instructions>`;

async function hook(agent: HookAgent, text: string, where: Where) {
  return runHook(agent, text, where);
}

describe("runHook", () => {
  it("Claude Code: the first read in pkg/sub brings the glob rule (the AGENTS.md there is Claude Code's own); the next read nothing", async () => {
    const { cwd, where } = project();
    const first = await hook(
      "claude-code",
      input(cwd, "Read", { file_path: join(cwd, "pkg/sub/x.ts") }),
      where,
    );
    expect(first.note).toBeUndefined();
    expect(JSON.parse(first.reply)).toEqual({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: RULE_ONLY },
    });
    const second = await hook(
      "claude-code",
      input(cwd, "Read", { file_path: join(cwd, "pkg/sub/y.ts") }),
      where,
    );
    expect(second).toEqual({ reply: "" });
    // Another session gets them again.
    const other = await hook(
      "claude-code",
      input(cwd, "Read", { file_path: "pkg/sub/y.ts" }, "s-2"),
      where,
    );
    expect(added(other.reply)).toBe(RULE_ONLY);
  });

  it("Codex: a shell command that names the file, and a patch, bring them once", async () => {
    const { cwd, where } = project();
    const shell = await hook(
      "codex",
      input(cwd, "Bash", { command: "sed -n 1,20p pkg/sub/x.ts" }),
      where,
    );
    expect(added(shell.reply)).toBe(BOTH);
    const patch = "*** Begin Patch\n*** Update File: pkg/sub/y.ts\n@@\n-a\n+b\n*** End Patch\n";
    expect(await hook("codex", input(cwd, "apply_patch", { command: patch }), where)).toEqual({
      reply: "",
    });
    const fresh = await hook("codex", input(cwd, "apply_patch", { command: patch }, "s-9"), where);
    expect(added(fresh.reply)).toBe(BOTH);
  });

  it("Gemini CLI: read_file with a relative path, and the {} it takes for nothing", async () => {
    const { cwd, where } = project();
    const first = await hook(
      "gemini-cli",
      input(cwd, "read_file", { file_path: "pkg/sub/x.ts" }, "g", "AfterTool"),
      where,
    );
    expect(JSON.parse(first.reply)).toEqual({
      hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: BOTH },
    });
    const again = await hook(
      "gemini-cli",
      input(cwd, "read_file", { file_path: "pkg/sub/x.ts" }, "g", "AfterTool"),
      where,
    );
    expect(again).toEqual({ reply: "{}\n" });
  });

  it("leaves out what the agent loads itself: Claude Code's nested CLAUDE.md and .claude/rules", async () => {
    const { cwd, where } = project({
      "project/pkg/sub/CLAUDE.md": "Claude reads this itself.\n",
      "project/.claude/rules/ts.md": '---\npaths: ["pkg/**"]\n---\nClaude\'s own rule.\n',
    });
    const claude = await hook(
      "claude-code",
      input(cwd, "Read", { file_path: "pkg/sub/x.ts" }),
      where,
    );
    expect(
      added(claude.reply),
    ).toBe(`An instruction file applies to what this call touched (given once per session):
<instructions path=".cursor/rules/ts.mdc" rule="ts">
TypeScript here is strict.

</instructions>`);
    // Codex loads neither: it gets the folder's AGENTS.md and both rules.
    const codex = await hook("codex", input(cwd, "Bash", { command: "cat pkg/sub/x.ts" }), where);
    expect(added(codex.reply)).toContain('<instructions path="pkg/sub/AGENTS.md">');
    expect(added(codex.reply)).toContain('<instructions path=".claude/rules/ts.md" rule="ts">');
  });

  it("adds nothing for a path outside the project, a link out of it, or a deleted file's outside folder", async () => {
    const { root, cwd, where } = project({
      "elsewhere/AGENTS.md": "Not this project's.\n",
      "elsewhere/z.ts": "",
    });
    symlinkSync(join(root, "elsewhere"), join(cwd, "pkg", "out"));
    for (const path of [
      join(root, "elsewhere/z.ts"),
      "pkg/out/z.ts",
      "/etc/passwd",
      "../elsewhere/gone.ts",
    ]) {
      expect(await hook("claude-code", input(cwd, "Read", { file_path: path }), where)).toEqual({
        reply: "",
      });
    }
  });

  it("a deleted file inside the project still brings its folder's instructions (a write may come next)", async () => {
    const { cwd, where } = project();
    rmSync(join(cwd, "pkg/sub/x.ts"));
    const out = await hook(
      "gemini-cli",
      input(cwd, "write_file", { file_path: "pkg/sub/x.ts" }, "g", "AfterTool"),
      where,
    );
    expect(added(out.reply)).toBe(BOTH);
  });

  it("malformed input, a missing cwd, an unknown event: the empty reply and one line", async () => {
    const { root, where } = project();
    expect(await hook("claude-code", "not json", where)).toEqual({
      reply: "",
      note: "the hook input is not JSON",
    });
    expect(await hook("gemini-cli", "{}", where)).toEqual({
      reply: "{}\n",
      note: "the hook input has no session_id",
    });
    const gone = await hook(
      "codex",
      input(join(root, "gone"), "Bash", { command: "cat /etc/hosts" }),
      where,
    );
    expect(gone.reply).toBe("");
    expect(gone.note).toMatch(/^nothing added: .*gone/);
    expect(gone.note).not.toContain("\n");
  });

  it("answers from the snapshot within a session, and sees a rule added after it has expired", async () => {
    const { cwd, where } = project();
    let now = 1_000_000;
    const clocked = { ...where, now: () => now };
    await hook("claude-code", input(cwd, "Read", { file_path: "pkg/sub/x.ts" }), clocked);
    writeFileSync(
      join(cwd, ".cursor/rules/late.mdc"),
      '---\nglobs: ["**/y.ts"]\n---\nLate rule.\n',
    );
    const read = () =>
      hook("claude-code", input(cwd, "Read", { file_path: "pkg/sub/y.ts" }), clocked);
    expect(await read()).toEqual({ reply: "" });
    now += SNAPSHOT_MS;
    expect(
      added((await read()).reply),
    ).toBe(`An instruction file applies to what this call touched (given once per session):
<instructions path=".cursor/rules/late.mdc" rule="late">
Late rule.

</instructions>`);
  });

  it("a session that runs long adds each folder's file once, and keeps a key per file", async () => {
    const folders: Record<string, string> = {};
    const n = 12;
    for (let i = 0; i < n; i++) folders[`project/d${i}/AGENTS.md`] = `Folder ${i}.\n`;
    const { cwd, where, cache } = project(folders);
    for (let i = 0; i < n; i++) {
      const out = await hook("codex", input(cwd, "Bash", { command: `ls d${i}/AGENTS.md` }), where);
      expect(added(out.reply)).toContain(`Folder ${i}.`);
      expect(await hook("codex", input(cwd, "Bash", { command: `ls d${i}` }), where)).toEqual({
        reply: "",
      });
    }
    const files = readdirSync(cache).filter((f) => f.startsWith("hook-codex-"));
    expect(files.length).toBe(1);
    const kept = JSON.parse(readFileSync(join(cache, files[0] ?? ""), "utf8")) as {
      keys: string[];
    };
    expect(kept.keys.length).toBe(2 * n);
  }, 30_000);
});

describe("session state", () => {
  it("keeps a session's newest keys and the agent's newest sessions", async () => {
    const root = tempDir();
    const where = { env: { XDG_CACHE_HOME: join(root, "cache") }, home: root };
    const long = sessionLocation("codex", "long", where);
    const keys = new Set(Array.from({ length: MAX_SESSION_KEYS + 500 }, (_, i) => `k${i}`));
    writeSession(long, "codex", { keys }, true);
    const read = await readSession(long);
    expect(read.found).toBe(true);
    expect(read.keys.size).toBe(MAX_SESSION_KEYS);
    expect([...read.keys][0]).toBe("k500");
    expect([...read.keys].at(-1)).toBe(`k${MAX_SESSION_KEYS + 499}`);

    const dir = join(root, "cache", "sysprompt");
    utimesSync(long.path, 999, 999);
    for (let s = 0; s < MAX_HOOK_SESSIONS + 5; s++) {
      const at = sessionLocation("codex", `s${s}`, where);
      writeSession(at, "codex", { keys: new Set(["a"]) }, true);
      // Each session older than the next (ties would be broken by the hashed names).
      utimesSync(at.path, 1000 + s, 1000 + s);
    }
    // Another agent's sessions are its own.
    writeSession(
      sessionLocation("gemini-cli", "g", where),
      "gemini-cli",
      { keys: new Set() },
      true,
    );
    const names = readdirSync(dir);
    expect(names.filter((f) => f.startsWith("hook-codex-")).length).toBe(MAX_HOOK_SESSIONS);
    expect(names.filter((f) => f.startsWith("hook-gemini-cli-")).length).toBe(1);
    // The newest stayed, the oldest went (the long session first).
    expect(await readSession(sessionLocation("codex", `s${MAX_HOOK_SESSIONS + 4}`, where))).toEqual(
      {
        keys: new Set(["a"]),
        found: true,
        snapshot: undefined,
      },
    );
    expect((await readSession(long)).found).toBe(false);
  });

  it("starts afresh from a file that is torn, foreign or not a file", async () => {
    const root = tempDir();
    const where = { env: { XDG_CACHE_HOME: join(root, "cache") }, home: root };
    const at = sessionLocation("codex", "x", where);
    mkdirSync(join(root, "cache", "sysprompt"), { recursive: true });
    for (const text of ['{"v":1,"keys":["a"', '{"v":2,"keys":["a"]}', "[]", '{"v":1,"keys":"a"}']) {
      writeFileSync(at.path, text);
      expect((await readSession(at)).keys).toEqual(new Set());
    }
    rmSync(at.path);
    mkdirSync(at.path);
    expect(await readSession(at)).toEqual({ keys: new Set(), found: true });
  });
});

describe("runHook past its deadline", () => {
  it("keeps nothing as given once the caller has answered", async () => {
    const { cwd, where } = project();
    const text = input(cwd, "Bash", { command: "cat pkg/sub/x.ts" });
    expect(await runHook("codex", text, where, () => true)).toEqual({ reply: "" });
    // The session was not told: the next call brings the files.
    expect(added((await runHook("codex", text, where)).reply)).toBe(BOTH);
  });
});

describe("nested instruction files the agent does not load itself", () => {
  it("are given, one per folder: another agent's file beside the agent's own, and each alone", async () => {
    const files: Record<string, string> = {};
    const folders: Record<string, string[]> = {
      a: ["GEMINI.md"],
      b: ["CLAUDE.md", "GEMINI.md"],
      c: ["AGENTS.md", "CLAUDE.md"],
      d: ["CLAUDE.md"],
      e: ["AGENTS.md", "GEMINI.md"],
    };
    for (const [dir, names] of Object.entries(folders)) {
      files[`project/${dir}/x.ts`] = "";
      for (const name of names) files[`project/${dir}/${name}`] = `${dir}/${name} text.\n`;
    }
    const { cwd, where } = project(files);
    const calls: Record<HookAgent, (dir: string) => [string, unknown, string]> = {
      "claude-code": (dir) => ["Read", { file_path: `${dir}/x.ts` }, "PostToolUse"],
      codex: (dir) => ["Bash", { command: `cat ${dir}/x.ts` }, "PostToolUse"],
      "gemini-cli": (dir) => ["read_file", { file_path: `${dir}/x.ts` }, "AfterTool"],
    };
    const given: Record<string, Record<string, string>> = {};
    for (const agent of Object.keys(calls) as HookAgent[]) {
      given[agent] = {};
      for (const dir of Object.keys(folders)) {
        const [tool, args, event] = calls[agent](dir);
        const text = added(
          (await hook(agent, input(cwd, tool, args, `s-${agent}`, event), where)).reply,
        );
        const names = [...(text ?? "").matchAll(/<instructions path="([^"]+)"/g)].map((m) => m[1]);
        (given[agent] as Record<string, string>)[dir] = names.join(" ");
      }
    }
    expect(given).toEqual({
      // Claude Code reads CLAUDE.md and AGENTS.md below cwd itself; GEMINI.md it does not.
      "claude-code": { a: "a/GEMINI.md", b: "b/GEMINI.md", c: "", d: "", e: "e/GEMINI.md" },
      // Codex reads none below cwd: the first of AGENTS.md, CLAUDE.md, GEMINI.md per folder.
      codex: {
        a: "a/GEMINI.md",
        b: "b/CLAUDE.md",
        c: "c/AGENTS.md",
        d: "d/CLAUDE.md",
        e: "e/AGENTS.md",
      },
      // Gemini CLI reads GEMINI.md below cwd itself (just in time).
      "gemini-cli": {
        a: "",
        b: "b/CLAUDE.md",
        c: "c/AGENTS.md",
        d: "d/CLAUDE.md",
        e: "e/AGENTS.md",
      },
    });
  }, 60_000);
});
