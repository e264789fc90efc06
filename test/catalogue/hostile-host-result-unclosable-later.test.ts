import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSyspromptExtension, type PromptRenderer } from "../../src/integrations/pi/index.js";
import { sessionRenderer } from "../../src/integrations/pi/renderer.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { fakeContext, fakePi, piPromptOptions } from "../integrations/pi/_fake-pi.js";

// Review rev82d F2: pi and opencode asked for the files a tool call touched (which keeps them as
// given for the session) before they knew whether anything could follow the tool's result. A
// repository file no reading can close (`<plaintext>`, some 260 `<b>`) got nothing appended, and
// the files were gone for the session: the next, plain read of the same file gave nothing, your
// glob rule never came. Now the closer is asked first, when files come, and they come with a later call.

const RULE = "MY-GLOB-RULE-MARKER for txt files";
const UNCLOSABLE = [
  ["<plaintext>", "<plaintext>\nanything\n"],
  ["260 <b>", "<b>".repeat(260)],
] as const;

let saved: { home?: string; cache?: string };
beforeEach(() => {
  saved = { home: process.env.HOME, cache: process.env.XDG_CACHE_HOME };
});
afterEach(() => {
  for (const [key, value] of [
    ["HOME", saved.home],
    ["XDG_CACHE_HOME", saved.cache],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** A git project with `sub/a.txt` (and a nested `sub/AGENTS.md`), and your glob rule for `**\/*.txt`. */
function project() {
  const root = tempDir();
  const files: Record<string, string> = {
    "home/.pi/agent/rules/txt.md": `---\nglobs: "**/*.txt"\n---\n${RULE}\n`,
    "p/.git/HEAD": "ref: refs/heads/main\n",
    "p/AGENTS.md": "root\n",
    "p/sub/AGENTS.md": "SUB-NESTED-MARKER\n",
    "p/sub/a.txt": "x\n",
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, cwd: join(root, "p"), home: join(root, "home") };
}

describe("hostile repository: a tool result nothing can follow keeps the files for a later call", () => {
  for (const [name, first] of UNCLOSABLE) {
    it(`opencode: a read of ${name}, then a plain read, brings your rule`, async () => {
      const { root, cwd, home } = project();
      process.env.HOME = home;
      process.env.XDG_CACHE_HOME = join(root, "cache");
      const { SyspromptPlugin } = await import("../../src/integrations/opencode/plugin.js");
      const after = (await SyspromptPlugin({ directory: cwd }))["tool.execute.after"];
      const read = async (text: string) => {
        const output = { title: "", output: text, metadata: {} };
        const args = { filePath: join(cwd, "sub/a.txt") };
        await after({ tool: "read", sessionID: "ses_f2", callID: "c", args }, output);
        return output.output.slice(text.length);
      };
      expect(await read(first)).toBe("");
      const added = await read("plain text of the file\n");
      expect(added).toContain(RULE);
      // Given once: the next read brings nothing.
      expect(await read("plain text of the file\n")).toBe("");
    });

    it(`pi: a read of ${name}, then a plain read, brings your rule; the warning says they come later`, async () => {
      const { cwd, home } = project();
      const stderr: string[] = [];
      const pi = fakePi();
      const newRenderer = (): PromptRenderer => {
        const inner = sessionRenderer();
        return {
          render: (o) =>
            inner.render({ ...o, home, now: NOW, machine: { platform: "linux", arch: "x64" } }),
          contextFor: (paths, o) =>
            inner.contextFor?.(paths, o) ?? Promise.resolve({ files: [], diagnostics: [] }),
          forgetContext: () => inner.forgetContext?.(),
          close: () => inner.close(),
        };
      };
      createSyspromptExtension({
        env: { PI_CODING_AGENT_DIR: join(home, ".pi/agent") },
        writeStderr: (text) => stderr.push(text),
        newRenderer,
        argv: ["--approve"],
        home,
      })(pi.api);
      const ctx = fakeContext({ cwd, hasUI: false });
      await pi.emit("session_start", {}, ctx);
      await pi.beforeAgentStart(piPromptOptions(cwd, { contextFiles: [] }), ctx);
      const read = async (text: string) => {
        const event = {
          toolName: "read",
          toolCallId: "call-1",
          input: { path: "sub/a.txt" },
          content: [{ type: "text", text }],
          isError: false,
        };
        const [patch] = (await pi.emit("tool_result", event, ctx)) as (
          | { content?: { type: string; text?: string }[] }
          | undefined
        )[];
        return (patch?.content ?? [])
          .slice(1)
          .map((c) => c.text ?? "")
          .join("");
      };
      expect(await read(first)).toBe("");
      const said = stderr.join("");
      const added = await read("plain text of the file");
      expect(added).toContain(RULE);
      expect(added).toContain("SUB-NESTED-MARKER");
      expect(await read("plain text of the file")).toBe("");
      // Said, and said truly: the files were not added, and they come with a later call.
      expect(said).toContain("tool-result-markup-as-text");
      expect(said).toContain("come with a later call");
    });
  }
});
