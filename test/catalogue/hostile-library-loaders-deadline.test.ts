import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_DEADLINE_MS } from "../../src/gather/deadline.js";
import {
  buildWorkspaceTree,
  buildWorkspaceTrees,
  loadContextFiles,
  loadPromptTemplates,
  loadRules,
  loadSkills,
  traceRules,
} from "../../src/index.js";
import { tempDir } from "../api/_helpers.js";

// The public loaders that read a repository's files (loadSkills, loadRules,
// traceRules, loadContextFiles, loadPromptTemplates, buildWorkspaceTree(s))
// heard a signal only when their caller passed one: a host calling
// loadSkills({ cwd }) on a repository of 5,000 skills of dense YAML
// frontmatter waited minutes (`list` took 200 s before it had a deadline).
// Without a signal each is now bound by a render's default deadline (5 s):
// past it, no items and a `load-deadline` warning (the trees reject with
// the timeout, as with a signal). The deadline is made to have passed
// already here (AbortSignal.timeout(5000) gives an aborted signal), so the
// case does not wait 5 s: it checks that the bound is asked for and heard.

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every AbortSignal.timeout of the default deadline has already fired; the lengths asked, in order. */
function defaultDeadlinePassed(): number[] {
  const asked: number[] = [];
  const timeout = AbortSignal.timeout.bind(AbortSignal);
  vi.spyOn(AbortSignal, "timeout").mockImplementation((ms) => {
    asked.push(ms);
    if (ms !== DEFAULT_DEADLINE_MS) return timeout(ms);
    return AbortSignal.abort(new DOMException("The operation timed out.", "TimeoutError"));
  });
  return asked;
}

/** A project (a `.git` folder) with a skill, a slash-command template, two rule files, an AGENTS.md and a few files. */
function project(): { root: string; cwd: string; agentDir: string; home: string } {
  const root = tempDir();
  const cwd = join(root, "project");
  const files: Record<string, string> = {
    "AGENTS.md": "Use tabs.\n",
    ".cursorrules": "Prefer small functions.\n",
    ".cursor/rules/style.mdc": "---\nalwaysApply: true\n---\nName things plainly.\n",
    ".pi/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Ships it.\n---\nRun make.\n",
    ".pi/prompts/review.md": "---\ndescription: Review.\n---\nReview $1.\n",
    "src/a.ts": "",
    "src/b.ts": "",
  };
  mkdirSync(join(cwd, ".git"), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(cwd, path, ".."), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  mkdirSync(join(root, "agent"));
  mkdirSync(join(root, "home"));
  return { root, cwd, agentDir: join(root, "agent"), home: join(root, "home") };
}

const cut = (what: string) => ({
  level: "warning",
  code: "load-deadline",
  message: `stopped reading the ${what} at the ${DEFAULT_DEADLINE_MS} ms deadline; the rest are left out`,
});

describe("hostile repository: a library caller that passes no signal", () => {
  it("loads as before while the default deadline has not passed", async () => {
    const p = project();
    const common = { cwd: p.cwd, agentDir: p.agentDir, home: p.home };
    expect((await loadSkills(common)).skills.map((s) => s.name)).toEqual(["deploy"]);
    expect((await loadRules(common)).rules.length).toBe(2);
    expect((await loadPromptTemplates(common)).templates.map((t) => t.name)).toEqual(["review"]);
    expect((await loadContextFiles(common)).files.map((f) => f.content)).toEqual(["Use tabs."]);
    expect((await buildWorkspaceTree(p.cwd)).lines.length).toBeGreaterThan(0);
  });

  it("loadSkills, loadRules, traceRules, loadPromptTemplates and loadContextFiles stop at the default deadline, with a load-deadline warning", async () => {
    const p = project();
    const common = { cwd: p.cwd, agentDir: p.agentDir, home: p.home };
    const asked = defaultDeadlinePassed();
    expect(await loadSkills(common)).toEqual({ skills: [], diagnostics: [cut("skills")] });
    expect(await loadRules(common)).toEqual({ rules: [], diagnostics: [cut("rule files")] });
    expect(await traceRules(common)).toEqual({
      rules: [],
      accounts: [],
      diagnostics: [cut("rule files")],
    });
    expect(await loadPromptTemplates(common)).toEqual({
      templates: [],
      diagnostics: [cut("slash-command templates")],
    });
    expect(await loadContextFiles(common)).toEqual({
      files: [],
      diagnostics: [cut("context files")],
    });
    expect(asked.filter((ms) => ms === DEFAULT_DEADLINE_MS).length).toBeGreaterThanOrEqual(5);
  });

  it("buildWorkspaceTree and buildWorkspaceTrees stop at the default deadline, as at a signal", async () => {
    const p = project();
    defaultDeadlinePassed();
    await expect(buildWorkspaceTree(p.cwd)).rejects.toMatchObject({ name: "TimeoutError" });
    await expect(buildWorkspaceTrees(p.cwd, [])).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("a caller's own signal is used as given: no default deadline is added", async () => {
    const p = project();
    const asked = defaultDeadlinePassed();
    const signal = new AbortController().signal;
    const got = await loadSkills({ cwd: p.cwd, agentDir: p.agentDir, home: p.home, signal });
    expect([got.skills.map((s) => s.name), asked]).toEqual([["deploy"], []]);
  });
});
