import { describe, expect, it } from "vitest";
import {
  buildToolSnippets,
  DEFAULT_TOOLS,
  parseToolDescriptions,
} from "../../src/gather/guidelines/tools.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

const BUILTIN = { read: "Read a file.", bash: "Run a command.", edit: "Edit a file." };

describe("buildToolSnippets", () => {
  it("keeps selection order and leaves out tools without a description", () => {
    expect(buildToolSnippets(["edit", "mystery", "read"], BUILTIN)).toEqual([
      { name: "edit", description: "Edit a file." },
      { name: "read", description: "Read a file." },
    ]);
  });

  it("caller snippets add tools and replace builtin ones; a blank one hides the tool", () => {
    expect(
      buildToolSnippets(["read", "bash", "edit", "deploy"], BUILTIN, {
        bash: "  Run a shell command (sandboxed).  ",
        edit: "   ",
        deploy: "Deploy to staging.",
        unused: "Not selected.",
      }),
    ).toEqual([
      { name: "read", description: "Read a file." },
      { name: "bash", description: "Run a shell command (sandboxed)." },
      { name: "deploy", description: "Deploy to staging." },
    ]);
  });

  it("a tool selected twice is listed once; no tools, no snippets", () => {
    expect(buildToolSnippets(["read", "read"], BUILTIN)).toEqual([
      { name: "read", description: "Read a file." },
    ]);
    expect(buildToolSnippets([], BUILTIN)).toEqual([]);
  });

  it("does not take descriptions from Object.prototype", () => {
    expect(buildToolSnippets(["toString"], BUILTIN, {})).toEqual([]);
  });
});

describe("parseToolDescriptions", () => {
  it("reads `- name: description` lines and nothing else", () => {
    expect(
      parseToolDescriptions(
        "# comment\n- read: Read it.\n- bad name: no\n  - mcp:search: Search.  \ntext",
      ),
    ).toEqual({ read: "Read it.", "mcp:search": "Search." });
  });

  it("the default selection is read, bash, edit, write", () => {
    expect(DEFAULT_TOOLS).toEqual(["read", "bash", "edit", "write"]);
  });
});

describe("the tools section", () => {
  const tools = async (options: Parameters<typeof pinned>[1]) => {
    const result = await renderSystemPrompt(
      pinned(tempDir(), { noContextFiles: true, ...options }),
    );
    return result.sections.find((s) => s.name === "tools")?.text;
  };

  it("no tools: the clear line", async () => {
    expect(await tools({ tools: [] })).toBe(
      "<tools>\nNo tools are available in this session: answer from what you know and from what the user shares.\n</tools>",
    );
  });

  it("builtin descriptions in selection order; a tool without one is left out", async () => {
    expect(await tools({ tools: ["grep", "mystery", "read"] })).toBe(
      "<tools>\nTools you can call:\n- grep: Search file contents for a pattern, honouring .gitignore.\n- read: Read a file's contents; long files can be read in parts.\n</tools>",
    );
  });

  it("only tools without descriptions: they are still named, on one line", async () => {
    expect(await tools({ tools: ["deploy", "mystery"] })).toBe(
      "<tools>\nTools you can call: deploy, mystery.\n</tools>",
    );
  });

  it("a tool named like an Object method renders instead of throwing", async () => {
    expect(await tools({ tools: ["constructor", "read"] })).toBe(
      "<tools>\nTools you can call:\n- read: Read a file's contents; long files can be read in parts.\n</tools>",
    );
  });

  it("caller snippets replace builtin ones", async () => {
    expect(
      await tools({
        tools: ["read", "deploy"],
        toolSnippets: { read: "Read, but politely.", deploy: "Ship it." },
      }),
    ).toBe(
      "<tools>\nTools you can call:\n- read: Read, but politely.\n- deploy: Ship it.\n</tools>",
    );
  });
});
