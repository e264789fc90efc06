import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject, diffEjected, ejectSections, explainPrompt } from "../../src/author/index.js";
import { parseRuleList } from "../../src/gather/guidelines/guidelines.js";
import type { SystemPromptOptions } from "../../src/options.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { builtinHash } from "../../src/sections/ejected-from.js";
import { BUILTIN, pinned, tempDir } from "../api/_helpers.js";
import { cli } from "../cli/_run.js";

const BUILTIN_RULES = parseRuleList(readFileSync(join(BUILTIN, "rules.md"), "utf8"));

/**
 * A project and a user layer whose AGENTS.md states one general rule (so
 * dedupe has work: only the user's texts take a rule out of the list).
 */
function world() {
  const root = tempDir();
  mkdirSync(join(root, "project/.pi"), { recursive: true });
  mkdirSync(join(root, "agent"), { recursive: true });
  writeFileSync(join(root, "agent/AGENTS.md"), `My rules:\n\n- ${BUILTIN_RULES[3]}\n`);
  return {
    root,
    project: join(root, "project/.pi/general-rules.md"),
    user: join(root, "agent/general-rules.md"),
  };
}

/** The rules section's text and the render's diagnostics. */
async function rules(root: string, extra: SystemPromptOptions = {}) {
  const result = await renderSystemPrompt(pinned(root, { tools: ["read", "edit"], ...extra }));
  return {
    text: result.sections.find((s) => s.name === "rules")?.text ?? "",
    diagnostics: result.diagnostics.filter((d) => d.code !== "context-file"),
  };
}

const section = (lines: readonly string[]) =>
  `<rules>\nRules:\n${lines.map((l) => `- ${l}`).join("\n")}\n</rules>`;

describe("the general rules as a layer file (general-rules.md)", () => {
  it("after eject rules the prompt is byte-identical, for the plain and the small-model variant, deduped as before", async () => {
    const { root, project } = world();
    const options = [{}, { model: "gpt-5-mini" }, { promptGuidelines: [BUILTIN_RULES[0] ?? ""] }];
    const before = await Promise.all(
      options.map((o) => renderSystemPrompt(pinned(root, { tools: ["read", "edit"], ...o }))),
    );
    const ejected = await ejectSections({ cwd: join(root, "project"), names: ["rules"] });
    expect(ejected.written.map((f) => f.path)).toEqual([
      join(root, "project/.pi/sections/rules.md"),
      join(root, "project/.pi/sections/rules@small.md"),
      project,
    ]);
    const after = await Promise.all(
      options.map((o) => renderSystemPrompt(pinned(root, { tools: ["read", "edit"], ...o }))),
    );
    expect(after.map((r) => r.text)).toEqual(before.map((r) => r.text));
    // Served by the project's copies, and the rule AGENTS.md states is still left out of the list.
    const served = after[0]?.sections.find((s) => s.name === "rules");
    expect(served?.source.layer).toBe("project");
    expect(served?.text).toBe(section(BUILTIN_RULES.filter((_, i) => i !== 3)));
  });

  it("eject rules warns when the project's copy hides the user's own list", async () => {
    const { root, project, user } = world();
    writeFileSync(user, "- From the user.\n");
    const ejected = await ejectSections({
      cwd: join(root, "project"),
      agentDir: join(root, "agent"),
      names: ["rules"],
    });
    expect(ejected.diagnostics).toEqual([
      {
        level: "warning",
        code: "eject-hides-user",
        message: `the user layer has its own general rules (${user}); the project's copy of the builtin list now wins over them`,
        path: project,
      },
    ]);
  });

  it("check says when the builtin list a copy came from has changed (an info at its record), and not before", async () => {
    const { root, project } = world();
    const builtinDir = join(root, "builtin");
    cpSync(BUILTIN, builtinDir, { recursive: true });
    const cwd = join(root, "project");
    const agentDir = join(root, "agent");
    await ejectSections({ cwd, agentDir, builtinDir, names: ["rules"] });
    const drift = async () =>
      (await checkProject({ cwd, agentDir, builtinDir })).diagnostics.filter(
        (d) => d.code === "general-rules-drift",
      );
    expect(await drift()).toEqual([]);
    const before = builtinHash(readFileSync(join(builtinDir, "rules.md"), "utf8"));
    writeFileSync(join(builtinDir, "rules.md"), "- A new builtin rule.\n");
    expect(await drift()).toEqual([
      {
        level: "info",
        code: "general-rules-drift",
        message: `the builtin general rules (${join(builtinDir, "rules.md")}) changed since this list was copied from them (${before}, now ${builtinHash("- A new builtin rule.\n")}); to see how: sysprompt eject --diff general-rules`,
        path: project,
        line: 1,
      },
    ]);
  });

  it("eject --diff general-rules gives the builtin list then (kept by eject), the list now and the copy", async () => {
    const { root, project } = world();
    const builtinDir = join(root, "builtin");
    cpSync(BUILTIN, builtinDir, { recursive: true });
    const cwd = join(root, "project");
    const agentDir = join(root, "agent");
    const then = readFileSync(join(builtinDir, "rules.md"), "utf8");
    await ejectSections({ cwd, agentDir, builtinDir, names: ["rules"] });
    const kept = join(root, "project/.pi/.sysprompt/base/general-rules.md");
    expect(readFileSync(kept, "utf8")).toBe(then);
    writeFileSync(join(builtinDir, "rules.md"), "- A new builtin rule.\n");
    writeFileSync(project, `${readFileSync(project, "utf8")}- A rule of our own.\n`);
    expect(await diffEjected({ cwd, agentDir, builtinDir, name: "general-rules" })).toEqual({
      name: "general-rules",
      recorded: builtinHash(then),
      current: builtinHash("- A new builtin rule.\n"),
      drifted: true,
      builtinThen: { path: kept, text: then },
      builtinNow: { path: join(builtinDir, "rules.md"), text: "- A new builtin rule.\n" },
      override: { path: project, text: readFileSync(project, "utf8") },
      diagnostics: [],
    });
  });

  it("editing, removing and adding a line of the project's copy changes the rules section", async () => {
    const { root, project } = world();
    await ejectSections({ cwd: join(root, "project"), names: ["rules"] });
    const text = readFileSync(project, "utf8")
      .replace(`- ${BUILTIN_RULES[0]}\n`, "- Read the code first.\n")
      .replace(`- ${BUILTIN_RULES[5]}\n`, "")
      .concat("- Answer in French.\n");
    writeFileSync(project, text);
    // A builtin rule's own words are unmarked; the project's other lines are marked as the repository's.
    expect(await rules(root)).toEqual({
      text: section([
        "Read the code first. (the repository's .pi/general-rules.md)",
        BUILTIN_RULES[1] ?? "",
        BUILTIN_RULES[2] ?? "",
        BUILTIN_RULES[4] ?? "",
        "Answer in French. (the repository's .pi/general-rules.md)",
      ]),
      diagnostics: [],
    });
  });

  it("the project's list replaces the user's, which replaces the builtin; an empty list means none", async () => {
    const { root, project, user } = world();
    writeFileSync(user, "# mine\n- From the user.\n");
    expect((await rules(root)).text).toBe(section(["From the user."]));
    writeFileSync(project, "- From the project.\n");
    expect((await rules(root)).text).toBe(
      section(["From the project. (the repository's .pi/general-rules.md)"]),
    );
    // An untrusted project's .pi/ is not read: the user's list applies.
    expect((await rules(root, { projectTrusted: false })).text).toBe(section(["From the user."]));
    writeFileSync(project, "# no general rules here\n");
    expect((await rules(root)).text).toBe("");
  });

  it("explain names the list in use: the layer's file and its count, or null for the builtin list", async () => {
    const { root, project } = world();
    expect((await explainPrompt(pinned(root))).generalRules).toBeNull();
    writeFileSync(project, "- One.\n- Two.\n");
    expect((await explainPrompt(pinned(root))).generalRules).toEqual({ path: project, count: 2 });
    const text = (await cli(root, ["explain"])).stdout;
    expect(text).toContain(
      "\ngeneral rules: 2 rules from .pi/general-rules.md, in place of the builtin list\n",
    );
  });

  it("a line that is not a rule is a warning at its line, and the rest of the list applies", async () => {
    const { root, project } = world();
    writeFileSync(project, "# ours\n- One.\nTwo.\n-\n\n- Three.\r\nfour\n");
    expect(await rules(root)).toEqual({
      text: section([
        "One. (the repository's .pi/general-rules.md)",
        "Three. (the repository's .pi/general-rules.md)",
      ]),
      diagnostics: [
        {
          level: "warning",
          code: "general-rules-line",
          message:
            'not a rule: each rule is one line starting with "- ", and # starts a comment; this line (and 2 more such lines) is left out',
          path: project,
          line: 3,
        },
      ],
    });
  });

  it("a general-rules.md that leads out of the project or is not a file is a diagnostic at its path, and the list below applies", async () => {
    const { root, project, user } = world();
    writeFileSync(user, "- From the user.\n");
    const outside = join(root, "outside.md");
    writeFileSync(outside, "- Planted.\n");
    symlinkSync(outside, project);
    const linked = await rules(root);
    expect(linked.text).toBe(section(["From the user."]));
    expect(linked.diagnostics.map((d) => [d.level, d.path])).toEqual([["warning", project]]);

    const { root: other, project: folder } = world();
    mkdirSync(folder);
    const notFile = await rules(other);
    expect(notFile.text).toBe(section(BUILTIN_RULES.filter((_, i) => i !== 3)));
    expect(notFile.diagnostics.map((d) => d.path)).toEqual([folder]);
  });
});
