import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createSyspromptExtension,
  formatPromptReport,
  ON_TOUCH_FLAG,
  type PromptRenderer,
  TREE_FLAG,
} from "../../../src/integrations/pi/index.js";
import type { SystemPromptOptions } from "../../../src/options.js";
import { renderSystemPrompt } from "../../../src/render-system-prompt.js";
import { emptyPromptDiagnostics } from "../../../src/sections/empty-prompt.js";
import type { RenderResult } from "../../../src/types.js";
import { NOW, tempDir } from "../../api/_helpers.js";
import { fakeContext, fakePi, piPromptOptions } from "./_fake-pi.js";

/** A project at `<root>/project` (a git root) and pi's agent dir at `<root>/agent`. */
function layout(files: Record<string, string> = {}) {
  const root = tempDir();
  const cwd = join(root, "project");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  mkdirSync(join(root, "agent"), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, cwd };
}

/** Renders with the clock, machine and home pinned; counts sessions made and closed. */
function pinnedRenderers(root: string) {
  const log = { made: 0, closed: 0, options: [] as SystemPromptOptions[] };
  const newRenderer = (): PromptRenderer => {
    log.made++;
    return {
      render: (options) => {
        log.options.push(options);
        return renderSystemPrompt({
          ...options,
          home: join(root, "home"),
          now: NOW,
          machine: { platform: "linux", arch: "x64" },
        });
      },
      close: () => {
        log.closed++;
      },
    };
  };
  return { log, newRenderer };
}

/** pi started with `--approve` (unless `argv` says otherwise), so project files apply; see trust.test.ts. */
function setup(
  files: Record<string, string> = {},
  flags: Record<string, boolean> = {},
  argv: string[] = ["--approve"],
) {
  const { root, cwd } = layout(files);
  const { log, newRenderer } = pinnedRenderers(root);
  const stderr: string[] = [];
  const pi = fakePi(flags);
  createSyspromptExtension({
    env: { PI_CODING_AGENT_DIR: join(root, "agent") },
    writeStderr: (text) => stderr.push(text),
    newRenderer,
    argv,
    home: join(root, "home"),
  })(pi.api);
  return { root, cwd, pi, log, stderr };
}

/** How the unclosed `{{#if rules}}` of a project rules.md is reported. */
const brokenRules = (cwd: string) =>
  `${cwd}/.pi/sections/rules.md:1:1 [template] Block "if" is never closed: expected {{/if}}; the builtin version is used instead`;

const PI_TOOLS = `<tools>
Tools you can call:
- read: Read file contents
- bash: Execute bash commands (ls, grep, find, etc.)
- edit: Make precise file edits with exact text replacement
- write: Create or overwrite files
</tools>`;

describe("the pi extension", () => {
  it("registers the tree flag (off by default), the on-touch flag (on) and the /sysprompt command", () => {
    const { pi } = setup();
    expect(Object.fromEntries(pi.flagDefs)).toEqual({
      [TREE_FLAG]: {
        type: "boolean",
        default: false,
        description:
          "sysprompt: add a compact listing of the working directory (workspace_tree) to the prompt",
      },
      [ON_TOUCH_FLAG]: {
        type: "boolean",
        default: true,
        description:
          "sysprompt: append nested AGENTS.md files and matching glob rules to the result of the tool call that first touches their folder (--sysprompt-on-touch false: off)",
      },
    });
    expect([...pi.commands.keys()]).toEqual(["sysprompt"]);
  });

  it("before_agent_start returns sysprompt's prompt, built from pi's inputs", async () => {
    const { cwd, pi, log } = setup({
      "project/AGENTS.md": "Project rule: be brief.\n",
      "project/.pi/sections/rules.md": "{{> base}}\n\nProject override.\n",
    });
    const ctx = fakeContext({ cwd, model: "fake-model" });
    const result = await pi.beforeAgentStart(
      piPromptOptions(cwd, {
        contextFiles: [{ path: join(cwd, "AGENTS.md"), content: "Project rule: be brief.\n" }],
        toolGuidelines: { read: ["Use read to examine files."] },
      }),
      ctx,
    );
    const expected = await renderSystemPrompt({
      ...log.options[0],
      home: join(cwd, "../home"),
      now: NOW,
      machine: { platform: "linux", arch: "x64" },
    });
    expect(result).toEqual({ systemPrompt: expected.text });
    expect(expected.sections.map((s) => [s.name, s.source.layer])).toEqual([
      ["preamble", "builtin"],
      ["tools", "builtin"],
      ["rules", "project"],
      ["project_context", "builtin"],
      ["cwd", "builtin"],
      ["environment", "builtin"],
      ["date", "builtin"],
    ]);
    const text = (name: string) => expected.sections.find((s) => s.name === name)?.text ?? "";
    expect(text("preamble").startsWith("You are a coding agent running inside pi.")).toBe(true);
    expect(text("tools")).toBe(PI_TOOLS);
    expect(text("rules")).toContain("- Use read to examine files.\n");
    expect(text("rules").endsWith("Project override.\n\n</rules>")).toBe(true);
    expect(text("environment")).toContain("- Model: fake-model");
    expect(text("project_context").split("Project rule: be brief.").length).toBe(2);
    expect(ctx.notes).toEqual([]);
  });

  it("pi's custom prompt is the base, its appended text the addendum; SYSTEM.md files are not read again", async () => {
    const { cwd, pi } = setup({
      "agent/SYSTEM.md": "User SYSTEM.md, which pi read already.",
      "agent/APPEND_SYSTEM.md": "User APPEND_SYSTEM.md, which pi read already.",
    });
    const result = await pi.beforeAgentStart(
      piPromptOptions(cwd, {
        customPrompt: "From --system-prompt.",
        appendSystemPrompt: "Appended.",
      }),
      fakeContext({ cwd }),
    );
    const prompt = result?.systemPrompt ?? "";
    expect(prompt.startsWith("From --system-prompt.\n\n<addendum>\nAppended.\n</addendum>")).toBe(
      true,
    );
    expect(prompt).not.toContain("which pi read already");
  });

  it("an untrusted project renders without its sections; no context files from pi means none", async () => {
    const { cwd, pi } = setup({
      "project/AGENTS.md": "Project rule: be brief.\n",
      "project/.pi/sections/rules.md": "Project override.\n",
    });
    const ctx = fakeContext({ cwd, trusted: false });
    const prompt = (await pi.beforeAgentStart(piPromptOptions(cwd), ctx))?.systemPrompt ?? "";
    expect(prompt).not.toContain("Project override.");
    expect(prompt).not.toContain("Project rule: be brief.");
    expect(prompt).toContain("<rules>\nRules:\n");
  });

  it("pi's skills are the skill list", async () => {
    const { cwd, pi } = setup();
    const skills = [
      {
        name: "pdf",
        description: "PDFs.",
        filePath: "/s/pdf/SKILL.md",
        disableModelInvocation: false,
      },
      {
        name: "hidden",
        description: "By hand.",
        filePath: "/s/h/SKILL.md",
        disableModelInvocation: true,
      },
    ];
    const prompt =
      (await pi.beforeAgentStart(piPromptOptions(cwd, { skills }), fakeContext({ cwd })))
        ?.systemPrompt ?? "";
    expect(prompt).toContain(
      "<available_skills>\n  <skill>\n    <name>pdf</name>\n    <description>PDFs.</description>\n    <location>/s/pdf/SKILL.md</location>\n  </skill>\n</available_skills>",
    );
  });

  it("a broken override renders its fallback and is reported once, through the UI", async () => {
    const { cwd, pi } = setup({ "project/.pi/sections/rules.md": "{{#if rules}}\nnever closed\n" });
    const ctx = fakeContext({ cwd });
    const first = await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    const second = await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    expect(first).toEqual(second);
    expect(first?.systemPrompt).toContain("<rules>\nRules:\n");
    expect(first?.systemPrompt).not.toContain("never closed");
    expect(ctx.notes).toEqual([["error", `sysprompt: error ${brokenRules(cwd)}`]]);
  });

  it("without a UI the same problem goes to stderr, once", async () => {
    const { cwd, pi, stderr } = setup({ "project/.pi/sections/rules.md": "{{#if rules}}\n" });
    const ctx = fakeContext({ cwd, hasUI: false });
    await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    expect(ctx.notes).toEqual([]);
    expect(stderr).toEqual([`sysprompt: error ${brokenRules(cwd)}\n`]);
  });

  it("a render that throws leaves pi's own prompt (nothing returned) and is reported once", async () => {
    const pi = fakePi();
    const stderr: string[] = [];
    createSyspromptExtension({
      env: { PI_CODING_AGENT_DIR: "/nonexistent/agent" },
      argv: [],
      home: "/nonexistent",
      writeStderr: (text) => stderr.push(text),
      newRenderer: () => ({
        render: () => Promise.reject(new Error("disk on fire")),
        close: () => {},
      }),
    })(pi.api);
    const ctx = fakeContext({ cwd: "/p" });
    expect(await pi.beforeAgentStart(piPromptOptions("/p"), ctx)).toBeUndefined();
    expect(await pi.beforeAgentStart(piPromptOptions("/p"), ctx)).toBeUndefined();
    expect(ctx.notes).toEqual([
      [
        "error",
        "sysprompt: error [pi-render-failed] rendering failed, so pi's own prompt is used: disk on fire",
      ],
    ]);
  });

  it("a prompt another extension forced is left alone: nothing rendered, nothing returned", async () => {
    const { cwd, pi, log } = setup();
    const ctx = fakeContext({ cwd });
    const options = piPromptOptions(cwd, { forceSystemPrompt: "Exactly this." });
    expect(await pi.beforeAgentStart(options, ctx)).toBeUndefined();
    expect(log.options).toEqual([]);
    expect(ctx.notes).toEqual([]);
  });

  it("an empty render leaves pi's own prompt, with a warning (in place of the render's error)", async () => {
    const pi = fakePi();
    const empty: RenderResult = {
      text: "",
      blocks: [],
      sections: [],
      diagnostics: emptyPromptDiagnostics([]),
      steps: [],
    };
    createSyspromptExtension({
      env: { PI_CODING_AGENT_DIR: "/nonexistent/agent" },
      argv: [],
      home: "/nonexistent",
      newRenderer: () => ({ render: async () => empty, close: () => {} }),
    })(pi.api);
    const ctx = fakeContext({ cwd: "/p" });
    expect(await pi.beforeAgentStart(piPromptOptions("/p"), ctx)).toBeUndefined();
    expect(ctx.notes).toEqual([
      [
        "warning",
        "sysprompt: warning [pi-empty-prompt] the rendered prompt is empty (every section is off or blank); pi's own prompt is used",
      ],
    ]);
  });

  it("one renderer per pi session: made on session_start, closed on session_shutdown", async () => {
    const { cwd, pi, log } = setup();
    const ctx = fakeContext({ cwd });
    await pi.emit("session_start", { reason: "startup" }, ctx);
    await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    expect(log).toMatchObject({ made: 1, closed: 0 });
    await pi.emit("session_shutdown", { reason: "new" }, ctx);
    await pi.emit("session_start", { reason: "new" }, ctx);
    await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    expect(log).toMatchObject({ made: 2, closed: 1 });
  });

  it("--sysprompt-tree adds the workspace tree and the AGENTS.md files below cwd", async () => {
    const files = { "project/src/main.ts": "", "project/src/AGENTS.md": "Deeper rules.\n" };
    const off = setup(files);
    const on = setup(files, { [TREE_FLAG]: true });
    const names = async (s: typeof on) => {
      const prompt = await s.pi.beforeAgentStart(
        piPromptOptions(s.cwd),
        fakeContext({ cwd: s.cwd }),
      );
      const result = await renderSystemPrompt({
        ...s.log.options[0],
        home: join(s.root, "home"),
        now: NOW,
        machine: { platform: "linux", arch: "x64" },
      });
      expect(prompt).toEqual({ systemPrompt: result.text });
      return result.sections.map((x) => x.name);
    };
    expect(await names(off)).toEqual(["preamble", "tools", "rules", "cwd", "environment", "date"]);
    expect(await names(on)).toEqual([
      "preamble",
      "tools",
      "rules",
      "cwd",
      "environment",
      "dir_context",
      "workspace_tree",
      "date",
    ]);
  });
});

describe("/sysprompt", () => {
  it("shows the sections (layer, bytes, file) and the diagnostics, through the UI", async () => {
    const { cwd, pi, log } = setup({ "project/.pi/sections/rules.md": "{{#if rules}}\n" });
    const ctx = fakeContext({ cwd, systemPromptOptions: piPromptOptions(cwd) });
    await pi.commands.get("sysprompt")?.handler("", ctx);
    const result = await renderSystemPrompt({
      ...log.options[0],
      home: join(cwd, "../home"),
      now: NOW,
      machine: { platform: "linux", arch: "x64" },
    });
    expect(ctx.notes).toEqual([["info", formatPromptReport(result).trimEnd()]]);
  });

  it("without a UI it writes the report to stderr", async () => {
    const { cwd, pi, stderr } = setup();
    const ctx = fakeContext({ cwd, hasUI: false });
    await pi.commands.get("sysprompt")?.handler("", ctx);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]?.split("\n").slice(0, 3)).toEqual([
      expect.stringMatching(/^sysprompt: 6 sections, \d+ bytes$/),
      "section      layer    bytes  file",
      expect.stringMatching(/^preamble {5}builtin {2}\d+ +\S+\/prompts\/sections\/preamble\.md$/),
    ]);
  });
});

describe("/sysprompt refresh", () => {
  it("asks the renderer for fresh session sections, renders nothing, and says so; another word is a usage note", async () => {
    const { cwd, root } = layout();
    const calls: string[] = [];
    const pi = fakePi();
    createSyspromptExtension({
      env: { PI_CODING_AGENT_DIR: join(root, "agent") },
      writeStderr: () => {},
      newRenderer: () => ({
        render: async () => {
          calls.push("render");
          return { text: "x", blocks: [], sections: [], diagnostics: [], steps: [] };
        },
        refresh: () => calls.push("refresh"),
        close: () => calls.push("close"),
      }),
      argv: ["--approve"],
      home: join(root, "home"),
    })(pi.api);
    const ctx = fakeContext({ cwd });
    await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    await pi.commands.get("sysprompt")?.handler(" refresh ", ctx);
    expect(calls).toEqual(["render", "refresh"]);
    await pi.commands.get("sysprompt")?.handler("rfresh", ctx);
    expect(calls).toEqual(["render", "refresh"]);
    expect(ctx.notes).toEqual([
      [
        "info",
        "sysprompt: the next prompt takes the session sections (workspace tree, AGENTS.md list, environment, date) afresh",
      ],
      [
        "warning",
        'sysprompt: unknown argument "rfresh"; /sysprompt shows the prompt\'s sections, /sysprompt refresh takes fresh session sections on the next prompt, /sysprompt command prints the sysprompt render command of this prompt',
      ],
    ]);
    // A long argument is cut in the message, and control characters escaped.
    await pi.commands.get("sysprompt")?.handler(`\u001b[31m${"x".repeat(100)}`, ctx);
    expect(ctx.notes[2]?.[1]).toBe(
      `sysprompt: unknown argument "\\\\u001b[31m${"x".repeat(35)}…"; /sysprompt shows the prompt's sections, /sysprompt refresh takes fresh session sections on the next prompt, /sysprompt command prints the sysprompt render command of this prompt`,
    );
  });
});

describe("formatPromptReport", () => {
  it("is a table of the sections, then the diagnostics", () => {
    const report = formatPromptReport({
      text: "Hi.\n\n<rules>\nBe kind.\n</rules>",
      blocks: [],
      sections: [
        { name: "preamble", text: "Hi.", source: { layer: "builtin", path: "/b/preamble.md" } },
        { name: "rules", text: "<rules>\nBe kind.\n</rules>", source: { layer: "option" } },
      ],
      diagnostics: [
        { level: "warning", code: "x-y", message: "something", path: "/p/a.md", line: 2 },
      ],
      steps: [],
    });
    expect(report).toBe(
      [
        "sysprompt: 2 sections, 30 bytes",
        "section   layer    bytes  file",
        "preamble  builtin  3      /b/preamble.md",
        "rules     option   25     -",
        "diagnostics:",
        "warning /p/a.md:2 [x-y] something",
        "",
      ].join("\n"),
    );
  });
});

describe("sysprompt.yaml inside pi", () => {
  const AGENTS = "Project rule from AGENTS.md: be brief.";
  const withContext = (cwd: string) =>
    piPromptOptions(cwd, {
      contextFiles: [{ path: join(cwd, "AGENTS.md"), content: `${AGENTS}\n` }],
    });

  for (const [agent, extra] of [
    ["codex", {}],
    ["claude-code", { "project/CLAUDE.md": "Claude's own file.\n" }],
  ] as const) {
    it(`agent: ${agent} in the user's file keeps the project's AGENTS.md (pi's preset applies), with one warning`, async () => {
      const { root, cwd, pi, stderr, log } = setup(
        {
          "project/AGENTS.md": `${AGENTS}\n`,
          "agent/sysprompt.yaml": `deadline: 4000\nagent: ${agent}\n`,
          ...extra,
        },
        {},
        ["--approve"],
      );
      const ctx = fakeContext({ cwd, hasUI: false, model: "fake-model" });
      const first = (await pi.beforeAgentStart(withContext(cwd), ctx))?.systemPrompt ?? "";
      const second = (await pi.beforeAgentStart(withContext(cwd), ctx))?.systemPrompt ?? "";
      expect(second).toBe(first);
      expect(first.split(AGENTS).length - 1).toBe(1);
      expect(first.startsWith("You are a coding agent running inside pi.")).toBe(true);
      expect(first).not.toContain("loads AGENTS.md itself");
      // The file's other keys still apply.
      expect(log.options.map((o) => o.agent)).toEqual(["pi", "pi"]);
      expect(stderr).toEqual([
        `sysprompt: warning ${root}/agent/sysprompt.yaml:2 [pi-config-ignored] not applied inside pi: agent, decided by pi's own preset, since another agent's would leave out files that pi does not load; the file's other keys apply\n`,
      ]);
    });
  }

  it("tools, model and tree that differ from pi's are named once, in one warning per file at the first key's line; equal ones are silent", async () => {
    const { root, cwd, pi, stderr, log } = setup({
      "agent/sysprompt.yaml": "vars:\n  team: core\ntree: true\nmodel: gpt-5\ntools: [read]\n",
      "project/.pi/sysprompt.yaml": "agent: pi\ntree: false\n",
      "project/.pi/sections/team.md": "---\norder: 90\n---\nTeam {{vars.team}}.\n",
    });
    const ctx = fakeContext({ cwd, hasUI: false, model: "fake-model" });
    const first = (await pi.beforeAgentStart(piPromptOptions(cwd), ctx))?.systemPrompt ?? "";
    await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    expect(first).toContain("Team core.");
    expect(first).not.toContain("<workspace_tree>");
    expect(log.options[0]?.tools).toEqual(["read", "bash", "edit", "write"]);
    expect(stderr).toEqual([
      `sysprompt: warning ${root}/agent/sysprompt.yaml:3 [pi-config-ignored] not applied inside pi: model, decided by pi's model (pi --model, /model); tools, decided by pi's active tools (pi --tools); tree, decided by the --sysprompt-tree flag; the file's other keys apply\n`,
    ]);
  });

  it("a project's deadline and max-tokens are left out, as outside pi: your section and rule stay", async () => {
    const { root, cwd, pi, stderr } = setup({
      "agent/sections/mine.md": "---\norder: 5\n---\nUSER-SECTION-MARKER mine\n",
      "agent/rules/mine.md": "---\nalwaysApply: true\n---\nUSER-RULE-MARKER rule always\n",
      "project/.pi/sysprompt.yaml": "deadline: 0\nmax-tokens: 1\n",
    });
    const ctx = fakeContext({ cwd, hasUI: false, model: "fake-model" });
    const prompt = (await pi.beforeAgentStart(piPromptOptions(cwd), ctx))?.systemPrompt ?? "";
    expect(prompt).toContain("USER-SECTION-MARKER");
    expect(prompt).toContain("USER-RULE-MARKER");
    // Said once, as a render's warnings are not.
    await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    expect(stderr).toEqual([
      expect.stringMatching(
        /^sysprompt: warning .*\/project\/\.pi\/sysprompt\.yaml:1 \[config-project-deadline\] deadline: 0 left out: /,
      ),
      expect.stringMatching(/:2 \[config-project-max-tokens\] max-tokens: 1 left out: /),
    ]);
    expect(stderr[0]).toContain(root);
  });

  it("the files are looked at once per session: a key added mid-session is named in the next one", async () => {
    const { root, cwd, pi, stderr } = setup({ "agent/sysprompt.yaml": "deadline: 4000\n" });
    const ctx = fakeContext({ cwd, hasUI: false, model: "fake-model" });
    await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    writeFileSync(join(root, "agent/sysprompt.yaml"), "deadline: 4000\nmodel: gpt-5\n");
    await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    expect(stderr).toEqual([]);
    await pi.emit("session_start", {}, ctx);
    await pi.beforeAgentStart(piPromptOptions(cwd), ctx);
    expect(stderr).toEqual([
      `sysprompt: warning ${root}/agent/sysprompt.yaml:2 [pi-config-ignored] not applied inside pi: model, decided by pi's model (pi --model, /model); the file's other keys apply\n`,
    ]);
  });
});
