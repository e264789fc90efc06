import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../../src/cli/main.js";
import { renderCommandLine } from "../../../src/integrations/pi/command-line.js";
import { createSyspromptExtension, piRenderOptions } from "../../../src/integrations/pi/index.js";
import { renderSystemPrompt } from "../../../src/render-system-prompt.js";
import { NOW, tempDir } from "../../api/_helpers.js";
import { fakeContext, fakePi, piPromptOptions } from "./_fake-pi.js";

const MACHINE = { platform: "linux", arch: "x64" } as const;

/** The words a POSIX shell makes of `command` (the real `sh`, so its quoting is what is tested). */
function shellWords(command: string): string[] {
  const out = execFileSync("sh", ["-c", `printf '%s\\0' ${command}`], { encoding: "utf8" });
  return out.split("\0").slice(0, -1);
}

/** A project with a nested AGENTS.md, a section override and a user config; pi with `argv`. */
function setup(argv: string[]) {
  const root = tempDir();
  const cwd = join(root, "project");
  const agentDir = join(root, "agent");
  const files: Record<string, string> = {
    "project/AGENTS.md": "Root rule: be brief.\n",
    "project/pkg/sub/AGENTS.md": "Nested rule.\n",
    "project/pkg/sub/x.ts": "export const x = 1;\n",
    "project/.pi/sections/rules.md": "{{> base}}\n\nProject override.\n",
    // Outside pi, these would change the render; the command says otherwise.
    "agent/sysprompt.yaml": "tree: true\nagent: codex\n",
  };
  mkdirSync(join(cwd, ".git"), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const env = { PI_CODING_AGENT_DIR: agentDir };
  const stderr: string[] = [];
  const pi = fakePi();
  createSyspromptExtension({
    env,
    argv,
    home: join(root, "home"),
    writeStderr: (text) => stderr.push(text),
    newRenderer: () => ({
      render: (options) =>
        renderSystemPrompt({ ...options, home: join(root, "home"), now: NOW, machine: MACHINE }),
      // The extension says "on touch" only with a renderer that can deliver on touch.
      contextFor: async () => ({ files: [], diagnostics: [] }),
      close: () => {},
    }),
  })(pi.api);
  return { root, cwd, agentDir, env, pi, stderr };
}

describe("/sysprompt command", () => {
  it("prints the sysprompt render command whose output is the prompt pi sends, pi's tool texts and guidelines as flags", async () => {
    const { root, cwd, agentDir, pi, stderr } = setup(["--approve", "--sysprompt-tree"]);
    // pi's inputs, fresh each time: before_agent_start changes the ones it is given.
    const options = () =>
      piPromptOptions(cwd, {
        contextFiles: [{ path: join(cwd, "AGENTS.md"), content: "Root rule: be brief.\n" }],
        toolGuidelines: {
          read: ["Use read to examine files."],
          edit: ["Batch edits; it's faster."],
        },
        promptGuidelines: ["Answer in English."],
      });
    const ctx = fakeContext({
      cwd,
      hasUI: false,
      model: "fake-model",
      systemPromptOptions: options(),
    });
    const sent = (await pi.beforeAgentStart(options(), ctx))?.systemPrompt ?? "";
    expect(sent).toContain("comes to you with the result of the first tool call");
    stderr.length = 0;
    await pi.commands.get("sysprompt")?.handler("command", ctx);
    const [said = "", ...rest] = stderr;
    expect(rest).toEqual([]);
    const [env, ...words] = shellWords(said.trimEnd());
    expect(env).toBe(`SYSPROMPT_AGENT_DIR=${agentDir}`);
    expect(words).toEqual([
      "sysprompt",
      "render",
      "--agent",
      "pi",
      "--cwd",
      cwd,
      "--model",
      "fake-model",
      "--tools",
      "read,bash,edit,write",
      "--tool",
      "read=Read file contents",
      "--tool",
      "bash=Execute bash commands (ls, grep, find, etc.)",
      "--tool",
      "edit=Make precise file edits with exact text replacement",
      "--tool",
      "write=Create or overwrite files",
      "--guideline",
      "Use read to examine files.",
      "--guideline",
      "Batch edits; it's faster.",
      "--guideline",
      "Answer in English.",
      "--tree",
      "--on-touch",
    ]);
    let stdout = "";
    const code = await run([...words.slice(1), "--now", NOW], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => {},
      cwd: root,
      env: { SYSPROMPT_AGENT_DIR: agentDir },
      home: join(root, "home"),
      machine: MACHINE,
    });
    expect({ code, stdout }).toEqual({ code: 0, stdout: sent });
  });

  it("says what it cannot carry: an appended prompt, other extensions' sections, pi's skills", async () => {
    const { cwd, pi, stderr } = setup(["--no-approve"]);
    const options = piPromptOptions(cwd, {
      appendSystemPrompt: "Appended by pi.",
      sections: { review: "Review it." },
      skills: [
        {
          name: "pdf",
          description: "PDFs.",
          filePath: "/s/SKILL.md",
          disableModelInvocation: false,
        },
      ],
    });
    const ctx = fakeContext({ cwd, hasUI: false, trusted: false, systemPromptOptions: options });
    await pi.commands.get("sysprompt")?.handler("command", ctx);
    const lines = stderr.join("").trimEnd().split("\n");
    expect(lines[0]).toMatch(/ --no-tree --on-touch --no-context-files --untrusted$/);
    expect(lines.slice(1)).toEqual([
      "not carried: pi's appended prompt: sysprompt reads APPEND_SYSTEM.md itself; pi's --append-system-prompt text must be given again",
      "not carried: sections other pi extensions add (review)",
      "not carried: pi's skills: sysprompt finds the skills folders itself; skills from pi packages or --skill are not found",
    ]);
  });

  it("a project folder named with escape sequences is shown escaped, never sent to the terminal", async () => {
    // A clipboard write (OSC 52) and a title change in the folder's name: the
    // command line quoted it for a shell, and pi's stderr got the raw bytes.
    const { root, pi, stderr } = setup(["--no-approve"]);
    const name = "x\u001b]52;c;ZXZpbA==\u0007\u009b2J\u200f";
    const cwd = join(root, name);
    mkdirSync(cwd);
    const options = piPromptOptions(cwd, { appendSystemPrompt: `From ${name}.` });
    const ctx = fakeContext({ cwd, hasUI: false, trusted: false, systemPromptOptions: options });
    await pi.commands.get("sysprompt")?.handler("command", ctx);
    await pi.commands.get("sysprompt")?.handler("", ctx);
    const said = stderr.join("");
    expect(said).toContain("x\\u001b]52;c;ZXZpbA==\\u0007\\u009b2J\\u200f");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
    expect(said).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200f]/);
  });

  it("names pi's agent dir when the shell's SYSPROMPT_AGENT_DIR could differ from it", () => {
    const input = { model: undefined, projectTrusted: true, workspaceTree: false };
    const prompt = piPromptOptions("/p", { selectedTools: [] });
    const env = { SYSPROMPT_AGENT_DIR: "/elsewhere" };
    const { options } = piRenderOptions({ ...input, prompt, env });
    expect(renderCommandLine(options, env).command).toBe(
      "SYSPROMPT_AGENT_DIR='~/.pi/agent' sysprompt render --agent pi --cwd /p --tools '' --no-tree --no-context-files",
    );
    const plain = piRenderOptions({ ...input, prompt, env: {} }).options;
    expect(renderCommandLine(plain, {}).command).toBe(
      "sysprompt render --agent pi --cwd /p --tools '' --no-tree --no-context-files",
    );
  });
});
