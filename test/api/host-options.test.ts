import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SystemPromptOptions } from "../../src/options.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "./_helpers.js";

/**
 * Options for a host that resolved part of the prompt itself (pi reads
 * SYSTEM.md, APPEND_SYSTEM.md and skills on its own): `resolvedSystemPrompt`,
 * `resolvedAppendPrompt`, `skills`.
 */

/** A root whose user and project layers both have SYSTEM.md and APPEND_SYSTEM.md. */
function layeredRoot(): string {
  const root = tempDir();
  for (const [dir, who] of [
    ["agent", "User"],
    ["project/.pi", "Project"],
  ] as const) {
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, "SYSTEM.md"), `${who} base prompt file.`);
    writeFileSync(join(root, dir, "APPEND_SYSTEM.md"), `${who} addendum file.`);
  }
  return root;
}

const section = (result: { sections: { name: string }[] }, name: string) =>
  result.sections.find((s) => s.name === name);

describe("resolvedSystemPrompt", () => {
  it("a text is the custom base prompt; no SYSTEM.md is read", async () => {
    const root = layeredRoot();
    const result = await renderSystemPrompt(
      pinned(root, { resolvedSystemPrompt: "Resolved base prompt." }),
    );
    expect(section(result, "system")).toEqual({
      name: "system",
      text: "Resolved base prompt.",
      source: { layer: "option" },
    });
    expect(result.text).not.toContain("base prompt file.");
  });

  it("null (or an empty text) means none: the builtin base, not the SYSTEM.md files", async () => {
    const root = layeredRoot();
    for (const resolvedSystemPrompt of [null, ""]) {
      const result = await renderSystemPrompt(pinned(root, { resolvedSystemPrompt }));
      expect(result.sections.map((s) => s.name).slice(0, 3)).toEqual([
        "preamble",
        "tools",
        "rules",
      ]);
      expect(result.text).not.toContain("base prompt file.");
    }
  });

  it("null leaves a SYSTEM_TEMPLATE.md (which the host does not know) in charge; a text beats it", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project/.pi"), { recursive: true });
    writeFileSync(join(root, "project/.pi/SYSTEM_TEMPLATE.md"), "Template for {{agentName}}.");
    const none = await renderSystemPrompt(pinned(root, { resolvedSystemPrompt: null }));
    expect(section(none, "system")).toEqual({
      name: "system",
      text: "Template for a coding agent.",
      source: { layer: "project", path: join(root, "project/.pi/SYSTEM_TEMPLATE.md") },
    });
    const text = await renderSystemPrompt(pinned(root, { resolvedSystemPrompt: "Given." }));
    expect(section(text, "system")).toEqual({
      name: "system",
      text: "Given.",
      source: { layer: "option" },
    });
  });

  it("a SYSTEM.md that cannot be read is not reported, since it is not read", async () => {
    const root = tempDir();
    // A folder where the file should be: reading it is an error diagnostic.
    mkdirSync(join(root, "agent/SYSTEM.md"), { recursive: true });
    const read = await renderSystemPrompt(pinned(root));
    expect(read.diagnostics.map((d) => d.path)).toEqual([join(root, "agent/SYSTEM.md")]);
    const resolved = await renderSystemPrompt(pinned(root, { resolvedSystemPrompt: null }));
    expect(resolved.diagnostics).toEqual([]);
  });

  it("is not given together with systemPrompt, and is a string or null", async () => {
    const root = tempDir();
    await expect(
      renderSystemPrompt(pinned(root, { systemPrompt: "A", resolvedSystemPrompt: "B" })),
    ).rejects.toThrow(
      new SyspromptError(
        "bad-option",
        "systemPrompt and resolvedSystemPrompt: pass one of them; resolvedSystemPrompt already is the custom base prompt",
      ),
    );
    await expect(
      renderSystemPrompt({ ...pinned(root), resolvedSystemPrompt: 3 } as never),
    ).rejects.toThrow(
      new SyspromptError("bad-option", "resolvedSystemPrompt: must be a string or null, got 3"),
    );
  });

  it("a one-line text that looks like a path is text: the host already read its files", async () => {
    const root = tempDir();
    const result = await renderSystemPrompt(pinned(root, { resolvedSystemPrompt: "./missing.md" }));
    expect(section(result, "system")).toEqual({
      name: "system",
      text: "./missing.md",
      source: { layer: "option" },
    });
  });
});

describe("resolvedAppendPrompt", () => {
  it("takes the place of APPEND_SYSTEM.md, before every appendSystemPrompt value", async () => {
    const root = layeredRoot();
    const result = await renderSystemPrompt(
      pinned(root, {
        resolvedAppendPrompt: "Resolved addendum.\n",
        appendSystemPrompt: ["Also this."],
      }),
    );
    expect(section(result, "addendum")).toEqual({
      name: "addendum",
      text: "<addendum>\nResolved addendum.\n\nAlso this.\n\n</addendum>",
      source: { layer: "builtin", path: expect.stringMatching(/sections\/addendum\.md$/) },
    });
  });

  it('"" means none: no addendum, and APPEND_SYSTEM.md stays unread', async () => {
    const root = layeredRoot();
    const result = await renderSystemPrompt(pinned(root, { resolvedAppendPrompt: "" }));
    expect(section(result, "addendum")).toBeUndefined();
    expect(result.text).not.toContain("addendum file.");
    // Without the option the project's file is the addendum: the fixture does have one.
    const read = await renderSystemPrompt(pinned(root));
    // The project's file, in the element that marks it as the repository's (rev53c F5).
    expect(read.text).toContain(
      `APPEND_SYSTEM.md">\nProject addendum file.\n\n</repository_append>\n\n</addendum>`,
    );
  });
});

describe("skills", () => {
  const skills = [
    { name: "pdf", description: "Work with PDF files.", filePath: "/skills/pdf/SKILL.md" },
    {
      name: "secret",
      description: "Only by hand.",
      filePath: "/skills/secret/SKILL.md",
      disableModelInvocation: true,
    },
    // A host's own skill objects carry more fields; they are ignored.
    {
      name: "db",
      description: "Query <the> database & more.",
      filePath: "/skills/db/SKILL.md",
      baseDir: "/skills/db",
      sourceInfo: { scope: "user" },
      disableModelInvocation: false,
    },
  ];

  it("are the skills section's list, without discovery and without model-hidden ones", async () => {
    const root = tempDir();
    // A project skill that discovery would find: it must not appear.
    mkdirSync(join(root, "project/.pi/skills/local"), { recursive: true });
    writeFileSync(
      join(root, "project/.pi/skills/local/SKILL.md"),
      "---\nname: local\ndescription: Found on disk.\n---\nBody.",
    );
    const result = await renderSystemPrompt(pinned(root, { skills }));
    const text = section(result, "skills") as { text: string } | undefined;
    expect(
      text?.text.split("\n").filter((l) => l.includes("<name>") || l.includes("<loc")),
    ).toEqual([
      "    <name>pdf</name>",
      "    <location>/skills/pdf/SKILL.md</location>",
      "    <name>db</name>",
      "    <location>/skills/db/SKILL.md</location>",
    ]);
    expect(text?.text).toContain(
      "    <description>Query &lt;the&gt; database &amp; more.</description>",
    );
    expect(result.steps.find((s) => s.name === "skills")?.status).toBe("skipped");
  });

  it("an empty list means no skills at all", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project/.pi/skills/local"), { recursive: true });
    writeFileSync(
      join(root, "project/.pi/skills/local/SKILL.md"),
      "---\nname: local\ndescription: Found on disk.\n---\nBody.",
    );
    const result = await renderSystemPrompt(pinned(root, { skills: [] }));
    expect(section(result, "skills")).toBeUndefined();
    const discovered = await renderSystemPrompt(pinned(root));
    expect(section(discovered, "skills")).toBeDefined();
  });

  it("a malformed list is a SyspromptError", async () => {
    const root = tempDir();
    const message =
      "skills: must be an array of { name, description, filePath, disableModelInvocation? } (strings; a boolean), got an array";
    for (const bad of [[{ name: "x", description: "y" }], [{ ...skills[0], filePath: "" }]]) {
      await expect(
        renderSystemPrompt({ ...pinned(root), skills: bad } as SystemPromptOptions),
      ).rejects.toThrow(new SyspromptError("bad-option", message));
    }
  });
});
