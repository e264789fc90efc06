import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHook } from "../../src/hook/run.js";
import {
  createPromptSession,
  expandSkillCommand,
  loadSkills,
  renderSystemPrompt,
} from "../../src/index.js";
import { appendTouched } from "../../src/integrations/pi/on-touch.js";
import { formatTouched } from "../../src/touch/format.js";
import type { Diagnostic } from "../../src/types.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Every rewrite of a text is said (docs/trust.md; fx77c, the recorded limits of review rev74e F1
// and of the markup-as-text line). On touch your own glob rule was escaped against the prompt's
// names (`<tools>` written `&lt;tools>`) with no `own-text-tag-escaped` warning, as a render
// gives for your AGENTS.md; and a rule or nested AGENTS.md on touch, a skill's expansion and a
// tool's result that fell back (their markup written `&lt;`, or nothing appended) said nothing,
// where a render says `context-markup-as-text` of the same file.

function project() {
  const base = tempDir();
  writeFiles(base, {
    "p/.git/HEAD": "ref: refs/heads/main\n",
    "p/AGENTS.md": "# root\n",
    // An unended declaration (`<!x`), which the closers write as text (their fallback). An unended
    // start tag (`<span hidden`) is written `&lt;` by the draw-in-place reading since rev82f F1,
    // F4, with page-tag-escaped, before the closers look: it no longer reaches the fallback.
    "p/sub/AGENTS.md": "# sub\n\nBuild with make; see <!x hidden\n",
    "p/.cursor/rules/deploy.mdc": '---\nglobs: "**/*.txt"\n---\nDeploy notes; see <!x hidden\n',
    "p/sub/g.txt": "y\n",
    "p/.pi/skills/draft/SKILL.md":
      "---\nname: draft\ndescription: Drafts things.\n---\nDraft it; see <!x hidden\n",
    "home/.pi/agent/rules/mine.md":
      '---\nglobs: "**/*.txt"\n---\nMINE: list them.\n\nUse <tools> as the placeholder.\n',
  });
  const home = join(base, "home");
  return {
    cwd: join(base, "p"),
    home,
    mine: join(home, ".pi/agent/rules/mine.md"),
    where: { env: { XDG_CACHE_HOME: join(base, "cache") }, home },
  };
}

const codes = (ds: readonly Diagnostic[]) => ds.map((d) => d.code);

describe("on touch, your own glob rule's escaped tag is said (rev74e F1's recorded limit)", () => {
  it("a session's contextFor gives own-text-tag-escaped with the file, its line and the tag", async () => {
    const { cwd, home, mine } = project();
    const session = createPromptSession({ cwd, home });
    const touched = await session.contextFor([join(cwd, "sub/g.txt")]);
    // The premise: the decided escape of your text against the prompt's names.
    expect(formatTouched(touched.files, cwd)).toContain("Use &lt;tools> as the placeholder.");
    const said = touched.diagnostics.filter((d) => d.code === "own-text-tag-escaped");
    expect(said).toHaveLength(1);
    expect(said[0]?.path).toBe(mine);
    expect(said[0]?.message).toContain('"<tools>"');
    // The rule's body (after its frontmatter) holds the tag on its third line.
    expect(said[0]?.message).toContain("line 3");
  });

  it("the hook says it (its note)", async () => {
    const { cwd, where } = project();
    const input = JSON.stringify({
      session_id: "s-own",
      cwd,
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(cwd, "sub/g.txt") },
    });
    const out = await runHook("claude-code", input, where);
    expect(out.reply).toContain("Use &lt;tools> as the placeholder.");
    expect(out.note).toContain("<tools>");
  });
});

describe("a rule, a nested AGENTS.md, a skill and a tool's result that fall back on touch are said", () => {
  it("formatTouched tells rule-markup-as-text and context-markup-as-text, with each path", async () => {
    const { cwd, home } = project();
    const session = createPromptSession({ cwd, home });
    const touched = await session.contextFor([join(cwd, "sub/g.txt")]);
    const said: Diagnostic[] = [];
    const text = formatTouched(touched.files, cwd, undefined, (d) => said.push(d));
    // The premise: the unended tags are written as text.
    expect(text).toContain("Deploy notes; see &lt;!x hidden");
    expect(text).toContain("Build with make; see &lt;!x hidden");
    expect(codes(said).sort()).toEqual(["context-markup-as-text", "rule-markup-as-text"]);
    expect(said.find((d) => d.code === "rule-markup-as-text")?.path).toBe(
      join(cwd, ".cursor/rules/deploy.mdc"),
    );
    expect(said.find((d) => d.code === "context-markup-as-text")?.path).toBe(
      join(cwd, "sub/AGENTS.md"),
    );
    expect(said.every((d) => d.level === "warning")).toBe(true);
  });

  it("the hook's note names the file that fell back", async () => {
    const { cwd, where } = project();
    const input = JSON.stringify({
      session_id: "s-fall",
      cwd,
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(cwd, "sub/g.txt") },
    });
    // A home with no rule of yours: only the repository's glob rule comes.
    const out = await runHook("claude-code", input, { ...where, home: tempDir() });
    expect(out.reply).toContain("Deploy notes; see &lt;!x hidden");
    expect(out.note).toContain(join(cwd, ".cursor/rules/deploy.mdc"));
    expect(out.note).toContain("&lt;");
  });

  it("a skill's expansion tells skill-markup-as-text", async () => {
    const { cwd, home } = project();
    const skills = await loadSkills({ cwd, home });
    const said: Diagnostic[] = [];
    const text = expandSkillCommand("/skill:draft go", skills.skills, {
      cwd,
      home,
      onDiagnostic: (d) => said.push(d),
    });
    expect(text).toContain("Draft it; see &lt;!x hidden");
    expect(codes(said)).toEqual(["skill-markup-as-text"]);
    expect(said[0]?.path).toBe(join(cwd, ".pi/skills/draft/SKILL.md"));
  });

  it("a skill past the unscoped check's 64 KiB with a < tells skill-markup-as-text", async () => {
    const { cwd, home } = project();
    writeFiles(cwd, {
      ".pi/skills/big/SKILL.md": `---\nname: big\ndescription: Big.\n---\n${"Use <b>bold</b> here.\n\n".repeat(3000)}`,
    });
    const skills = await loadSkills({ cwd, home });
    const said: Diagnostic[] = [];
    const text = expandSkillCommand("/skill:big", skills.skills, {
      cwd,
      home,
      onDiagnostic: (d) => said.push(d),
    });
    expect(text).toContain("Use &lt;b>bold&lt;/b> here.");
    expect(codes(said)).toEqual(["skill-markup-as-text"]);
  });

  it("pi: a tool's result nothing can be appended to is said", () => {
    const said: Diagnostic[] = [];
    const patch = appendTouched(
      { content: [{ type: "text", text: "<plaintext>\nanything\n" }] },
      [{ path: "/p/sub/AGENTS.md", content: "rules", kind: "context" }],
      "/p",
      (d) => said.push(d),
    );
    expect(patch).toBeUndefined();
    expect(codes(said)).toEqual(["tool-result-markup-as-text"]);
    expect(said[0]?.message).toContain("/p/sub/AGENTS.md");
  });
});

describe("a render says every fallback of a repository's always rule", () => {
  it("closers past 1 KiB: its HTML written as text, with rule-markup-as-text (only over-budget was said)", async () => {
    const root = tempDir();
    const rule = `Keep these notes.\n\n${"<details>".repeat(150)}\n`;
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.cursor/rules/notes.mdc": `---\nalwaysApply: true\n---\n${rule}`,
    });
    const result = await renderSystemPrompt(pinned(root));
    // The premise: the fallback wrote its markup as text.
    expect(result.text).toContain("Keep these notes.");
    expect(result.text).toContain("&lt;details>");
    const said = result.diagnostics.filter((d) => d.code === "rule-markup-as-text");
    expect(said.map((d) => d.path)).toEqual([join(root, "project/.cursor/rules/notes.mdc")]);
    expect(said[0]?.message).toContain("written as text");
  });
});
