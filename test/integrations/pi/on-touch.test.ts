import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createSyspromptExtension,
  ON_TOUCH_FLAG,
  type PromptRenderer,
} from "../../../src/integrations/pi/index.js";
import { formatTouched, touchedPaths } from "../../../src/integrations/pi/on-touch.js";
import { sessionRenderer } from "../../../src/integrations/pi/renderer.js";
import { NOW, tempDir } from "../../api/_helpers.js";
import { type FakeContext, fakeContext, fakePi, piPromptOptions } from "./_fake-pi.js";

/** A git project with nested AGENTS.md files in pkg/ and pkg/sub/. */
function project(files: Record<string, string> = {}) {
  const root = tempDir();
  const cwd = join(root, "project");
  const all: Record<string, string> = {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "Root rules.\n",
    "project/pkg/sub/AGENTS.md": "Sub rules: no default exports.\n",
    "project/pkg/sub/x.ts": "export const x = 1;\n",
    "project/pkg/sub/y.ts": "export const y = 2;\n",
    ...files,
  };
  mkdirSync(join(root, "agent"), { recursive: true });
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, cwd };
}

/** The extension with a real session renderer (clock and machine pinned), after one prompt. */
async function started(argv: string[] = ["--approve"], files: Record<string, string> = {}) {
  const { root, cwd } = project(files);
  const stderr: string[] = [];
  const pi = fakePi();
  const newRenderer = (): PromptRenderer => {
    const inner = sessionRenderer();
    return {
      render: (o) =>
        inner.render({
          ...o,
          home: join(root, "home"),
          now: NOW,
          machine: { platform: "linux", arch: "x64" },
        }),
      contextFor: (paths, o) =>
        inner.contextFor?.(paths, o) ?? Promise.resolve({ files: [], diagnostics: [] }),
      forgetContext: () => inner.forgetContext?.(),
      close: () => inner.close(),
    };
  };
  createSyspromptExtension({
    env: { PI_CODING_AGENT_DIR: join(root, "agent") },
    writeStderr: (text) => stderr.push(text),
    newRenderer,
    argv,
    home: join(root, "home"),
  })(pi.api);
  const ctx = fakeContext({ cwd, hasUI: false });
  await pi.emit("session_start", {}, ctx);
  // The context files pi loaded itself, as pi passes them.
  const contextFiles = argv.includes("--no-context-files")
    ? []
    : [{ path: join(cwd, "AGENTS.md"), content: "Root rules.\n" }];
  const before = await pi.beforeAgentStart(piPromptOptions(cwd, { contextFiles }), ctx);
  const toolResult = async (toolName: string, input: unknown, isError = false) => {
    const event = {
      toolName,
      toolCallId: "call-1",
      input,
      content: [{ type: "text", text: "file text" }],
      isError,
    };
    const [patch] = await pi.emit("tool_result", event, ctx as FakeContext);
    return patch;
  };
  return { root, cwd, pi, ctx, stderr, toolResult, system: before?.systemPrompt ?? "" };
}

// After the tool's own text, which pi joins to it with one line break: a line break first makes
// the blank line between them (catalogue/hostile-pi-touch-open-block).
const SUB = `
An instruction file applies to what this call touched (given once per session):
<instructions path="pkg/sub/AGENTS.md">
Sub rules: no default exports.

</instructions>`;

describe("pi: context on touch", () => {
  it("appends the nested AGENTS.md to the result of the read that first touches its folder, once", async () => {
    const { toolResult, stderr } = await started();
    expect(await toolResult("read", { path: "pkg/sub/x.ts" })).toEqual({
      content: [
        { type: "text", text: "file text" },
        { type: "text", text: SUB },
      ],
    });
    expect(await toolResult("read", { path: "pkg/sub/y.ts" })).toBeUndefined();
    expect(await toolResult("edit", { path: "@pkg/sub/x.ts" })).toBeUndefined();
    expect(stderr).toEqual([]);
  });

  it("gives the files once more after pi compacted the conversation", async () => {
    const { toolResult, pi, ctx } = await started();
    expect(await toolResult("read", { path: "pkg/sub/x.ts" })).toBeDefined();
    expect(await toolResult("read", { path: "pkg/sub/x.ts" })).toBeUndefined();
    await pi.emit("session_compact", {}, ctx);
    expect(await toolResult("read", { path: "pkg/sub/y.ts" })).toEqual({
      content: [
        { type: "text", text: "file text" },
        { type: "text", text: SUB },
      ],
    });
  });

  it("takes the path of edit, write, grep, find and ls, and nothing from a failed call", async () => {
    for (const [tool, input] of [
      ["edit", { path: "pkg/sub/x.ts" }],
      ["write", { path: "pkg/sub/new.ts", content: "" }],
      ["grep", { pattern: "x", path: "pkg/sub" }],
      ["find", { pattern: "*.ts", path: "pkg/sub" }],
      ["ls", { path: "pkg/sub" }],
    ] as const) {
      const { toolResult } = await started();
      expect(await toolResult(tool, input, true)).toBeUndefined();
      const patch = (await toolResult(tool, input)) as { content: { text: string }[] };
      expect(patch.content[1]?.text).toBe(SUB);
    }
  });

  it("gives no context files with pi's --no-context-files", async () => {
    const { toolResult } = await started(["--approve", "--no-context-files"]);
    expect(await toolResult("read", { path: "pkg/sub/x.ts" })).toBeUndefined();
  });

  it("leaves the system prompt as it was: the files come only in tool results", async () => {
    const { system } = await started();
    expect(system).not.toContain("Sub rules");
  });

  it("is off with --sysprompt-on-touch false (and its other spellings)", async () => {
    for (const value of ["false", "0", "no", "off"]) {
      const { toolResult } = await started(["--approve", `--${ON_TOUCH_FLAG}`, value]);
      expect(await toolResult("read", { path: "pkg/sub/x.ts" })).toBeUndefined();
    }
    const { toolResult } = await started(["--approve", `--${ON_TOUCH_FLAG}=yes`]);
    expect(await toolResult("read", { path: "pkg/sub/x.ts" })).toBeDefined();
  });

  it("loads for an untrusted project too (text, confined), and says a refused file once", async () => {
    const { toolResult, stderr, cwd } = await started(["--no-approve"], {
      "project/evil/a.ts": "",
    });
    symlinkSync("/etc/passwd", join(cwd, "evil/AGENTS.md"));
    expect((await toolResult("read", { path: "pkg/sub/x.ts" })) as unknown).toEqual({
      content: [
        { type: "text", text: "file text" },
        { type: "text", text: SUB },
      ],
    });
    expect(await toolResult("read", { path: "evil/a.ts" })).toBeUndefined();
    expect(await toolResult("read", { path: "evil/a.ts" })).toBeUndefined();
    const said = stderr.filter((l) => l.includes("context-outside-project"));
    expect(said).toEqual([
      `sysprompt: warning ${cwd}/evil/AGENTS.md [context-outside-project] not loaded: it resolves to /etc/passwd, outside the project root ${cwd}\n`,
    ]);
  });
});

/** The system prompt's dir_context section, when pi runs with the tree on. */
const dirContext = (system: string) => {
  const start = system.indexOf("<dir_context>");
  return start < 0 ? undefined : system.slice(start, system.indexOf("</dir_context>") + 14);
};
const HOLDS =
  "Such a file holds the rules for its folder and everything under it. Where it disagrees with a file from a folder above, the deeper file wins inside its folder.";
const dirContextSaying = (sentence: string) =>
  [
    "<dir_context>",
    "Folders below the working directory have instruction files of their own, not loaded yet (paths relative to the working directory):",
    "- pkg/sub/AGENTS.md",
    "",
    `${HOLDS} ${sentence}`,
    "</dir_context>",
  ].join("\n");

describe("pi: the prompt says how nested AGENTS.md files arrive", () => {
  it("on touch (the default): they are named, and said to come with the first tool result in their folder", async () => {
    const { system } = await started(["--approve", "--sysprompt-tree"]);
    expect(dirContext(system)).toBe(
      dirContextSaying(
        "Each file below the working directory comes to you with the result of the first tool call that touches its folder or anything under it (a read, a listing, a search, an edit): before you change a file in one of these folders, read or list something there first, so that its instructions have arrived, and follow them.",
      ),
    );
  });

  it("with --sysprompt-on-touch false, or pi's --no-context-files, nothing delivers them: the model is asked to read them", async () => {
    const READ = dirContextSaying(
      "Before you change any file in one of these folders, read the file listed for it and follow it.",
    );
    for (const argv of [
      ["--approve", "--sysprompt-tree", `--${ON_TOUCH_FLAG}`, "false"],
      ["--approve", "--sysprompt-tree", "--no-context-files"],
    ]) {
      const { system } = await started(argv);
      expect([argv, dirContext(system)]).toEqual([argv, READ]);
    }
  });
});

describe("touchedPaths", () => {
  it("takes from bash only words that are evidently paths and exist", async () => {
    const { root, cwd } = project();
    const home = join(root, "home");
    const command = `cat ./pkg/sub/x.ts ${cwd}/pkg/sub/y.ts pkg/sub/x.ts ./missing.ts "./pkg" $HOME/x; ls ../project|wc>/dev/null`;
    expect(await touchedPaths("bash", { command }, cwd, home)).toEqual([
      join(cwd, "pkg/sub/x.ts"),
      join(cwd, "pkg/sub/y.ts"),
      join(cwd, "pkg"),
      cwd,
      "/dev/null",
    ]);
    expect(await touchedPaths("bash", { command: 42 }, cwd, home)).toEqual([]);
    expect(await touchedPaths("ls", {}, cwd, home)).toEqual([]);
    expect(await touchedPaths("my_tool", { path: "x" }, cwd, home)).toEqual([]);
    expect(await touchedPaths("read", { path: "~/a" }, cwd, home)).toEqual([join(home, "a")]);
  });

  it("writes each file as an element with an escaped path, relative to cwd when inside it", () => {
    expect(
      formatTouched(
        [
          { path: '/p/a"b/AGENTS.md', content: "x", kind: "context" },
          { path: "/elsewhere/r.mdc", content: "y", kind: "rule", name: "r<1>" },
        ],
        "/p",
      ),
    ).toBe(`Instruction files apply to what this call touched (each given once per session):
<instructions path="a&quot;b/AGENTS.md">
x

</instructions>
<instructions path="/elsewhere/r.mdc" rule="r&lt;1&gt;">
y

</instructions>`);
  });
});
