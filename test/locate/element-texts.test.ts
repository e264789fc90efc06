import { describe, expect, it } from "vitest";
import { elementTexts, RAW_TEXT_OPTIONS } from "../../src/locate/element-texts.js";
import { OPTIONS } from "../../src/options/registry.js";

// Every option whose value is text the caller gives is classified: printed as
// written (its elements are the caller's: `elementTexts` reads it), or
// otherwise. A new option of text fails here until it is (rev53c F3: your
// `promptGuidelines`, `toolGuidelines` and `docs` were printed raw and gave no
// element names, so a repository's AGENTS.md wrote your `<deploy_policy>` raw).
const OTHERWISE: Record<string, string> = {
  agentName: "data: escaped as a value (a project's sysprompt.yaml may set it)",
  model: "data: escaped as a value",
  tools: "data: names, escaped",
  toolSnippets: "data: escaped as a value (a project's sysprompt.yaml may set it)",
  vars: "yours read by ownPrintedTexts, a project's escaped",
  sections: "read as templates by codeSections",
  resolvedSystemPrompt: "the repository's text (a host's, maybe the project's): escaped",
  resolvedAppendPrompt: "the repository's text (a host's, maybe the project's): escaped",
  skills: "data: names, descriptions and paths escaped",
  agent: "a preset's name: not printed as text",
  agentMode: "a setting",
  ruleSources: "format names, not printed as text",
  env: "the environment variables read, not printed",
  roots: "paths, printed as names",
};

const isText = (type: string) => /string|text|label, value|name, description/.test(type);

describe("elementTexts", () => {
  it("every option of text is classified: printed raw (elementTexts) or as something else", () => {
    const raw = new Set<string>(RAW_TEXT_OPTIONS);
    const unclassified = Object.entries(OPTIONS)
      .filter(([, spec]) => isText(String((spec as { type?: unknown }).type)))
      .map(([key]) => key)
      .filter((key) => !raw.has(key) && OTHERWISE[key] === undefined);
    expect(unclassified).toEqual([]);
    for (const key of RAW_TEXT_OPTIONS) expect(OTHERWISE[key]).toBeUndefined();
  });

  it("reads your guidelines, tools' guidelines, docs and environment lines", () => {
    const texts = elementTexts(
      [],
      { systemPrompt: null, appendSystemPrompt: [] },
      {
        promptGuidelines: ["<pg>a</pg>"],
        toolGuidelines: { read: ["<tg>b</tg>"] },
        docs: "<doc>c</doc>",
        environment: [{ label: "<el>", value: "<ev>" }],
      },
    );
    for (const tag of ["<pg>", "<tg>", "<doc>", "<el>", "<ev>"])
      expect(texts.some((t) => t.includes(tag))).toBe(true);
  });
});
