import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSyspromptExtension } from "../../../src/integrations/pi/index.js";
import {
  applyPiStructure,
  piPromptText,
  piStructure,
} from "../../../src/integrations/pi/structure.js";
import { renderSystemPrompt } from "../../../src/render-system-prompt.js";
import type { RenderedSection } from "../../../src/types.js";
import { NOW, tempDir } from "../../api/_helpers.js";
import { fakeContext, fakePi, piPromptOptions } from "./_fake-pi.js";

const section = (name: string, text: string): RenderedSection => ({
  name,
  text,
  source: { layer: "builtin" },
});
const tagged = (name: string, body: string) => section(name, `<${name}>\n${body}\n</${name}>`);
const result = (sections: RenderedSection[]) => ({
  sections,
  text: sections.map((s) => s.text).join("\n\n"),
});
const PROMPT = { cwd: "/p", selectedTools: ["read", "bash"], hiddenTools: [] };

describe("piStructure", () => {
  it("before cwd: the custom prompt, less a tail pi's own places hold; cwd is pi's; the rest in order", () => {
    const r = result([
      section("preamble", "You are a coding agent."),
      tagged("tools", "- read"),
      tagged("rules", "- be kind"),
      tagged("addendum", "Appended."),
      tagged("project_context", "Run the tests."),
      tagged("skills", "<available_skills/>"),
      tagged("cwd", "Current working directory: /p"),
      tagged("environment", "- OS: linux"),
      tagged("date", "2026-12-01"),
    ]);
    const structure = piStructure(r, PROMPT);
    expect(structure).toEqual({
      customPrompt:
        "You are a coding agent.\n\n<tools>\n- read\n</tools>\n\n<rules>\n- be kind\n</rules>",
      appendSystemPrompt: "Appended.",
      contextFiles: [{ path: "sysprompt", content: "sysprompt" }],
      skills: [
        {
          name: "sysprompt",
          description: "sysprompt",
          filePath: "sysprompt",
          disableModelInvocation: false,
        },
      ],
      sections: {
        addendum: "Appended.",
        project_context: "Run the tests.",
        skills: "<available_skills/>",
        cwd: "Current working directory: /p",
        environment: "- OS: linux",
        date: "2026-12-01",
      },
    });
    expect(structure && piPromptText(structure, PROMPT)).toBe(r.text);
  });

  it("project_rules between project_context and skills has no place in pi's order: it and every section before it are the custom prompt (an AGENTS.md edit is then a patch of pi's preamble)", () => {
    const r = result([
      section("preamble", "You are a coding agent."),
      tagged("addendum", "Appended."),
      tagged("project_context", "Run the tests."),
      tagged("project_rules", "Always: tabs."),
      tagged("skills", "<available_skills/>"),
      tagged("cwd", "C"),
    ]);
    const structure = piStructure(r, PROMPT);
    expect(structure?.customPrompt).toBe(
      "You are a coding agent.\n\n<addendum>\nAppended.\n</addendum>\n\n<project_context>\nRun the tests.\n</project_context>\n\n<project_rules>\nAlways: tabs.\n</project_rules>",
    );
    expect(structure?.sections).toEqual({ skills: "<available_skills/>", cwd: "C" });
    expect(structure && piPromptText(structure, PROMPT)).toBe(r.text);
  });

  it("skills stay in the custom prompt when pi gives them no place (neither read nor bash)", () => {
    const r = result([section("preamble", "Hi."), tagged("skills", "S"), tagged("cwd", "C")]);
    const prompt = { ...PROMPT, selectedTools: ["edit"] };
    expect(piStructure(r, prompt)).toEqual({
      customPrompt: "Hi.\n\n<skills>\nS\n</skills>",
      appendSystemPrompt: "",
      contextFiles: [],
      skills: [],
      sections: { cwd: "C" },
    });
  });

  it("a section pi's order cannot hold exactly gives none (the caller sends the whole text)", () => {
    const base = [section("preamble", "Hi."), tagged("cwd", "C")];
    for (const bad of [
      // no cwd: pi adds its own
      result([section("preamble", "Hi."), tagged("date", "D")]),
      // cwd first: no custom prompt, so pi would use its own preamble and tools
      result([tagged("cwd", "C"), tagged("date", "D")]),
      // untagged after cwd: pi wraps every section
      result([...base, section("note", "plain text")]),
      // a tag that is not its name
      result([...base, section("note", "<other>\nx\n</other>")]),
      // an empty element: pi adds nothing for an empty text
      result([...base, section("note", "<note>\n\n</note>")]),
      // not the blank-line join pi uses
      { sections: base, text: "Hi.\n<cwd>\nC\n</cwd>" },
    ]) {
      expect(piStructure(bad, PROMPT)).toBeUndefined();
    }
  });

  it("applyPiStructure sets pi's fields in place, and pi's sections object is the one filled", () => {
    const options = piPromptOptions("/p", { sections: { other: "from another extension" } });
    const sections = options.sections;
    const structure = piStructure(result([section("preamble", "Hi."), tagged("cwd", "C")]), PROMPT);
    if (!structure) throw new Error("expected a structure");
    applyPiStructure(options, structure);
    expect(options.sections).toBe(sections);
    expect(options).toMatchObject({
      customPrompt: "Hi.",
      appendSystemPrompt: "",
      contextFiles: [],
      skills: [],
      sections: { cwd: "C" },
    });
  });
});

describe("the extension delivers through pi's structure", () => {
  const setup = (files: Record<string, string>) => {
    const root = tempDir();
    const cwd = join(root, "project");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const pi = fakePi();
    const rendered: string[] = [];
    createSyspromptExtension({
      env: { PI_CODING_AGENT_DIR: join(root, "agent") },
      argv: ["--approve"],
      home: join(root, "home"),
      writeStderr: () => {},
      newRenderer: () => ({
        render: async (options) => {
          const r = await renderSystemPrompt({
            ...options,
            home: join(root, "home"),
            now: NOW,
            machine: { platform: "linux", arch: "x64" },
          });
          rendered.push(r.text);
          return r;
        },
        close: () => {},
      }),
    })(pi.api);
    return { pi, cwd, rendered };
  };

  it("the builtin prompt: structured, and pi's rendering of it is sysprompt's text", async () => {
    const { pi, cwd, rendered } = setup({ "project/AGENTS.md": "Be brief.\n" });
    const options = piPromptOptions(cwd, {
      contextFiles: [{ path: join(cwd, "AGENTS.md"), content: "Be brief.\n" }],
    });
    const sent = await pi.beforeAgentStart(options, fakeContext({ cwd }));
    expect(pi.delivery).toBe("structured");
    expect(sent).toEqual({ systemPrompt: rendered[0] });
    // The stable sections lead; the session ones (environment, date) follow
    // cwd as sections of their own, which pi patches one by one.
    expect(Object.keys(options.sections ?? {})).toEqual([
      "project_context",
      "cwd",
      "environment",
      "date",
    ]);
    expect(options.customPrompt?.endsWith("</rules>")).toBe(true);
  });

  it("a project section pi cannot wrap (tag: false, after cwd): the whole text, forced", async () => {
    const { pi, cwd, rendered } = setup({
      "project/.pi/sections/plain.md":
        "---\norder: 990\ntag: false\n---\nPlain words at the end.\n",
    });
    const sent = await pi.beforeAgentStart(piPromptOptions(cwd), fakeContext({ cwd }));
    expect(pi.delivery).toBe("forced");
    expect(sent).toEqual({ systemPrompt: rendered[0] });
    expect(rendered[0]).toContain("</cwd>\n\nPlain words at the end.\n\n<environment>");
  });
});
