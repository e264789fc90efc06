import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SystemPromptOptions } from "../../src/options.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "./_helpers.js";

const bad = (message: string) => new SyspromptError("bad-option", message);

/** Options as a JavaScript caller (or a config file) may pass them: types unchecked. */
const loose = (options: Record<string, unknown>) => options as SystemPromptOptions;

describe("explicit options are checked before anything is read", () => {
  it("a value of the wrong type is a SyspromptError that names the option and the expected type", async () => {
    const root = tempDir();
    const cases: [Record<string, unknown>, string][] = [
      [
        { tools: "read,bash" },
        'tools: must be an array of strings (split a list first: ["read","bash"]), got "read,bash"',
      ],
      [{ tools: ["read", ""] }, "tools: must be an array of non-empty names, got an array"],
      [{ tools: ["read", 3] }, "tools: must be an array of strings, got an array"],
      [
        { deadlineMs: Number.NaN },
        "deadlineMs: must be a number of milliseconds, 0 or more, got NaN",
      ],
      [{ deadlineMs: -1 }, "deadlineMs: must be a number of milliseconds, 0 or more, got -1"],
      [
        { deadlineMs: "5000" },
        'deadlineMs: must be a number of milliseconds, 0 or more, got "5000"',
      ],
      [{ projectTrusted: "no" }, 'projectTrusted: must be true or false, got "no"'],
      [{ noContextFiles: 1 }, "noContextFiles: must be true or false, got 1"],
      [{ workspaceTree: "yes" }, 'workspaceTree: must be true or false, got "yes"'],
      [{ model: 7 }, "model: must be a string, got 7"],
      [{ agent: "" }, 'agent: must be a preset name such as "codex", got ""'],
      [
        { maxPromptTokens: 0 },
        "maxPromptTokens: must be a whole number of tokens, 1 or more, such as 8000, got 0",
      ],
      [
        { maxPromptTokens: 1.5 },
        "maxPromptTokens: must be a whole number of tokens, 1 or more, such as 8000, got 1.5",
      ],
      [
        { toolSnippets: { read: ["x"] } },
        "toolSnippets: must be an object whose values are strings, got an object",
      ],
      [
        { toolGuidelines: { bash: "Use rg." } },
        "toolGuidelines: must be an object whose values are arrays of strings, got an object",
      ],
      [
        { promptGuidelines: "Be brief." },
        'promptGuidelines: must be an array of strings (split a list first: ["Be brief."]), got "Be brief."',
      ],
      [
        { appendSystemPrompt: [1] },
        "appendSystemPrompt: must be a string or an array of strings, got an array",
      ],
      [
        { environment: [{ label: "OS" }] },
        "environment: must be an array of { label, value } strings, got an array",
      ],
      [
        { roots: "../lib" },
        'roots: must be an array of strings (split a list first: ["../lib"]), got "../lib"',
      ],
      [{ env: { HOME: 1 } }, "env: must be an object whose values are strings, got an object"],
      [
        { machine: "linux" },
        'machine: must be an object { platform, arch } of strings, such as { platform: "linux", arch: "x64" }, got "linux"',
      ],
      [{ cwd: "" }, 'cwd: must be a non-empty path, got ""'],
      [{ sections: ["a"] }, "sections: must be an object of section name to text, got an array"],
      [
        { agentdir: "/x" },
        'unknown option "agentdir"; the options are: cwd, agentDir, projectDir, projectTrusted, agentName, agent, agentMode, configFiles, vars, model, tools, toolSnippets, toolGuidelines, promptGuidelines, systemPrompt, appendSystemPrompt, resolvedSystemPrompt, resolvedAppendPrompt, sections, environment, noContextFiles, contextOnTouch, docs, workspaceTree, treeDepth, git, allowGitDirs, treeMtime, roots, maxContextBytes, ruleSources, skillPaths, skills, now, env, home, machine, deadlineMs, builtinDir, maxPromptTokens, ceilingDir',
      ],
    ];
    for (const [options, message] of cases) {
      await expect(renderSystemPrompt(loose({ ...pinned(root), ...options }))).rejects.toThrow(
        bad(message),
      );
    }
  });

  it("undefined is the same as leaving an option out; deadlineMs may be 0 or Infinity", async () => {
    const root = tempDir();
    const base = await renderSystemPrompt(pinned(root));
    const same = await renderSystemPrompt(
      pinned(root, { model: undefined, tools: undefined, deadlineMs: Number.POSITIVE_INFINITY }),
    );
    expect(same.text).toBe(base.text);
  });

  it("builtinDir without a sections/ folder is an error, not an empty prompt", async () => {
    const root = tempDir();
    for (const dir of [join(root, "nowhere"), root]) {
      await expect(renderSystemPrompt(pinned(root, { builtinDir: dir }))).rejects.toThrow(
        bad(
          `builtinDir: no sections/ folder in ${dir}; pass a folder laid out like the package's prompts/ (sections/, partials/, tools.md, rules.md), or leave it out`,
        ),
      );
    }
  });

  it("a cwd that is there but longer than the system opens is said to be too long, not missing", async () => {
    const root = tempDir();
    // 22 folders of 200 characters: 4,400 bytes, past Linux's PATH_MAX of 4,096; each made
    // from the one above (a relative mkdir and chdir), as only that reaches them.
    const name = "d".repeat(200);
    const make = `process.chdir(process.argv[1]); for (let i = 0; i < 22; i++) { require("node:fs").mkdirSync("${name}"); process.chdir("${name}"); }`;
    execFileSync(process.execPath, ["-e", make, root]);
    const deep = join(root, ...Array.from({ length: 22 }, () => name));
    try {
      await expect(renderSystemPrompt(pinned(root, { cwd: deep }))).rejects.toThrow(
        bad(
          `cwd: the path is too long for the system to open (ENAMETOOLONG, ${Buffer.byteLength(deep)} bytes) at ${deep}; pass the project's folder`,
        ),
      );
    } finally {
      // rm walks a tree by descriptors; removing it by its paths would fail as the render's look-up did.
      execFileSync("rm", ["-rf", join(root, name)]);
    }
  });

  it("cwd must be an existing folder; an explicit agentDir too, but a missing default one is fine", async () => {
    const root = tempDir();
    writeFileSync(join(root, "file.txt"), "x");
    await expect(renderSystemPrompt(pinned(root, { cwd: join(root, "gone") }))).rejects.toThrow(
      bad(`cwd: there is no folder at ${join(root, "gone")}; pass the project's folder`),
    );
    await expect(renderSystemPrompt(pinned(root, { cwd: join(root, "file.txt") }))).rejects.toThrow(
      bad(`cwd: not a folder at ${join(root, "file.txt")}; pass the project's folder`),
    );
    await expect(
      renderSystemPrompt(pinned(root, { agentDir: join(root, "no-agent") })),
    ).rejects.toThrow(
      bad(
        `agentDir: there is no folder at ${join(root, "no-agent")}; pass an existing folder, or leave it out for $SYSPROMPT_AGENT_DIR or ~/.pi/agent`,
      ),
    );
    mkdirSync(join(root, "home"));
    const { agentDir: _, ...withoutAgentDir } = pinned(root);
    const result = await renderSystemPrompt(withoutAgentDir);
    expect(result.diagnostics).toEqual([]);
  });

  it('a selected tool that nothing describes is an info diagnostic; a hidden one ("") is not', async () => {
    const root = tempDir();
    const result = await renderSystemPrompt(
      pinned(root, {
        tools: ["read", "grpe", "deploy", "grpe", "secret"],
        toolSnippets: { deploy: "Ship it.", secret: "" },
      }),
    );
    expect(result.diagnostics).toEqual([
      {
        level: "info",
        code: "tool-unknown",
        message:
          'tool "grpe" has no description (none in tools.md or toolSnippets), so the tools section cannot say what it does; check the spelling, or describe it (--tool grpe=text, toolSnippets)',
      },
    ]);
  });
});
