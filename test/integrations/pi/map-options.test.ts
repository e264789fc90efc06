import { describe, expect, it } from "vitest";
import { PI_AGENT, piRenderOptions } from "../../../src/integrations/pi/index.js";
import { piPromptOptions } from "./_fake-pi.js";

const base = {
  model: undefined,
  projectTrusted: true,
  workspaceTree: false,
  env: {},
};

describe("piRenderOptions", () => {
  it("maps every pi input: tools minus hidden, pi's resolved prompts, sections, skills, model, trust, agent dir", () => {
    const skill = {
      name: "pdf",
      description: "Work with PDFs.",
      filePath: "/a/skills/pdf/SKILL.md",
      baseDir: "/a/skills/pdf",
      sourceInfo: { scope: "user" },
      disableModelInvocation: false,
    };
    const mapped = piRenderOptions({
      prompt: piPromptOptions("/work/project", {
        customPrompt: "From pi's SYSTEM.md.",
        selectedTools: ["read", "bash", "codemode", "grep"],
        hiddenTools: ["grep"],
        toolSnippets: { read: "Read file contents", codemode: "Run JavaScript" },
        toolGuidelines: { read: ["Use read, not cat."] },
        promptGuidelines: ["Answer in English."],
        appendSystemPrompt: "From APPEND_SYSTEM.md.",
        sections: { review: "Review carefully.", empty: "" },
        contextFiles: [{ path: "/work/project/AGENTS.md", content: "Be kind." }],
        skills: [skill],
      }),
      model: "claude-sonnet-4-5",
      projectTrusted: false,
      workspaceTree: false,
      env: { PI_CODING_AGENT_DIR: "/custom/agent", TERM: "xterm" },
    });
    expect(mapped).toEqual({
      options: {
        cwd: "/work/project",
        env: {
          PI_CODING_AGENT_DIR: "/custom/agent",
          TERM: "xterm",
          SYSPROMPT_AGENT_DIR: "/custom/agent",
        },
        projectTrusted: false,
        agent: PI_AGENT,
        model: "claude-sonnet-4-5",
        tools: ["read", "bash", "codemode"],
        toolSnippets: { read: "Read file contents", codemode: "Run JavaScript" },
        toolGuidelines: { read: ["Use read, not cat."] },
        promptGuidelines: ["Answer in English."],
        resolvedSystemPrompt: "From pi's SYSTEM.md.",
        resolvedAppendPrompt: "From APPEND_SYSTEM.md.",
        // An empty section adds nothing in pi; in sysprompt it would remove one.
        sections: { review: "Review carefully." },
        skills: [
          {
            name: "pdf",
            description: "Work with PDFs.",
            filePath: "/a/skills/pdf/SKILL.md",
            disableModelInvocation: false,
          },
        ],
        workspaceTree: false,
        configFiles: true,
      },
      diagnostics: [],
    });
  });

  it("fills pi's own defaults for a command's unnormalized options; no context files from pi means none", () => {
    expect(piRenderOptions({ ...base, prompt: { cwd: "/p" } })).toEqual({
      options: {
        cwd: "/p",
        env: { SYSPROMPT_AGENT_DIR: "~/.pi/agent" },
        projectTrusted: true,
        agent: PI_AGENT,
        tools: ["read", "bash", "edit", "write"],
        toolSnippets: {},
        toolGuidelines: {},
        promptGuidelines: [],
        resolvedSystemPrompt: null,
        resolvedAppendPrompt: "",
        sections: {},
        skills: [],
        noContextFiles: true,
        workspaceTree: false,
        configFiles: true,
      },
      diagnostics: [],
    });
  });

  it("leaves out a pi section sysprompt cannot take (system, a bad name), with a warning", () => {
    const mapped = piRenderOptions({
      ...base,
      prompt: piPromptOptions("/p", { sections: { system: "X", Bad: "Y", ok: "Z" } }),
    });
    expect(mapped.options.sections).toEqual({ ok: "Z" });
    expect(mapped.diagnostics).toEqual(
      ["system", "Bad"].map((name) => ({
        level: "warning",
        code: "pi-section-name",
        message: `pi's prompt section "${name}" is left out: sysprompt section names match ^[a-z][a-z0-9_-]*$ and "system" is the custom base prompt's`,
      })),
    );
  });

  it("the tree flag is the workspaceTree option; sysprompt.yaml is read for the rest", () => {
    for (const workspaceTree of [false, true]) {
      const mapped = piRenderOptions({ ...base, workspaceTree, prompt: piPromptOptions("/p") });
      expect([
        mapped.options.workspaceTree,
        mapped.options.configFiles,
        mapped.diagnostics,
      ]).toEqual([workspaceTree, true, []]);
    }
  });

  it("contextOnTouch is passed on only when the extension delivers on touch; otherwise the option is absent", () => {
    const on = piRenderOptions({ ...base, contextOnTouch: true, prompt: piPromptOptions("/p") });
    expect(on.options.contextOnTouch).toBe(true);
    for (const contextOnTouch of [false, undefined]) {
      const off = piRenderOptions({ ...base, contextOnTouch, prompt: piPromptOptions("/p") });
      expect("contextOnTouch" in off.options).toBe(false);
    }
  });
});
