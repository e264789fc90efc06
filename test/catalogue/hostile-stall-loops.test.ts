import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { traceContextFiles } from "../../src/gather/context/context-files.js";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { clearStepCache } from "../../src/gather/deadline.js";
import { traceRules } from "../../src/gather/rules/load.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { loadSkills } from "../../src/skills/load.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Loops whose count the repository sets, run synchronously: matching 600 glob
// rules of 64 globs each against 64 deep paths (seconds of one unbroken
// loop), and parsing the frontmatter of 1,000 rule files. Each yields every
// slice and stops at the deadline: the call returns on time with a warning,
// and nothing goes on parsing after a render gave up on it.

/** Rule documents parsed, counted through the module load.ts parses them with. */
const parsed = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../src/gather/rules/_fields.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/gather/rules/_fields.js")>();
  return {
    ...real,
    readRuleDocument: (...args: Parameters<typeof real.readRuleDocument>) => {
      parsed.count++;
      return real.readRuleDocument(...args);
    },
  };
});

/** Skill files parsed, counted through the module skills/load.ts parses them with. */
const skillsParsed = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../src/skills/validate.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/skills/validate.js")>();
  return {
    ...real,
    parseSkill: (...args: Parameters<typeof real.parseSkill>) => {
      skillsParsed.count++;
      return real.parseSkill(...args);
    },
  };
});

/** Door reads begun of the files under `reads.under`, counted through the module the context reader reads with. */
const reads = vi.hoisted(() => ({ count: 0, under: "\0" }));
vi.mock("../../src/repo-files/read.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/repo-files/read.js")>();
  return {
    ...real,
    readRepoCapped: (...args: Parameters<typeof real.readRepoCapped>) => {
      if (args[0].startsWith(reads.under)) reads.count++;
      return real.readRepoCapped(...args);
    },
  };
});

// Slack for timing checks on a loaded 2-core machine shared by several test
// runs (as test/gather/stall.test.ts): the deadline holds within this.
const SLACK_MS = 400;
const DEADLINE_MS = 100;

vi.setConfig({ testTimeout: 120_000 });
afterEach(() => clearStepCache());

const GLOBS = Array.from({ length: 64 }, (_, k) => `"a/**/b${k}/**/c"`).join(", ");

/** A git project with 200 glob rules of 64 globs in each of three formats' folders. */
function manyGlobRules(): string {
  const root = join(tempDir(), "project");
  mkdirSync(join(root, ".git"), { recursive: true });
  const formats = [
    [".cursor/rules", "mdc", `globs: [${GLOBS}]`],
    [".claude/rules", "md", `paths: [${GLOBS}]`],
    [".kiro/steering", "md", `inclusion: fileMatch\nfileMatchPattern: [${GLOBS}]`],
  ] as const;
  for (const [dir, ext, front] of formats) {
    mkdirSync(join(root, dir), { recursive: true });
    for (let i = 0; i < 200; i++) {
      writeFileSync(join(root, dir, `r${i}.${ext}`), `---\n${front}\n---\nRule ${i}.\n`);
    }
  }
  return root;
}

/** 64 paths 61 segments deep: each glob's two `**` cost a match about D^3. */
const DEEP_PATHS = Array.from(
  { length: 64 },
  (_, i) => `a/${Array.from({ length: 58 }, (_, k) => `d${k}`).join("/")}/b${i}/x/c`,
);

describe("catalogue: loops over a repository's data yield to the deadline", () => {
  it("stall-loops-touch-glob-rules: matching 600 rules of 64 globs on 64 deep paths stops at the deadline, with a warning", async () => {
    const root = manyGlobRules();
    const home = join(root, "..", "home");
    const { rules } = await traceRules({ cwd: root, home, agentDir: join(home, "agent") });
    expect(rules.filter((r) => r.activation === "glob")).toHaveLength(600);
    const started = performance.now();
    const touched = await loadContextForPaths(DEEP_PATHS, {
      cwd: root,
      home,
      rules,
      contextFiles: false,
      deadlineMs: DEADLINE_MS,
    });
    const took = performance.now() - started;
    expect(took).toBeLessThan(DEADLINE_MS + SLACK_MS);
    expect(touched.diagnostics).toEqual([
      {
        level: "warning",
        code: "touch-deadline",
        message: `the ${DEADLINE_MS} ms deadline passed before every folder and glob rule was looked at: what the rest bring is not given now, and may come with a later call`,
      },
    ]);
    // What was given is given whole; the rest was not marked as given.
    expect(touched.files.length).toBeLessThan(600);
  });

  it("stall-loops-render-rules: a render that gave up on 600 rule files parses none of them after it returned", async () => {
    const project = manyGlobRules();
    const options = pinned(join(project, ".."), { deadlineMs: DEADLINE_MS });
    // Warm: the first render of a worker loads and compiles the builtin templates, unbounded.
    await renderSystemPrompt(pinned(tempDir()));
    parsed.count = 0;
    const started = performance.now();
    const result = await renderSystemPrompt(options);
    const took = performance.now() - started;
    // The builtin step is not bounded (without the package's templates there is no prompt).
    const builtin = result.steps.find((s) => s.name === "builtin")?.ms ?? 0;
    expect(took).toBeLessThan(DEADLINE_MS + builtin + SLACK_MS);
    expect(result.steps.find((s) => s.name === "rule-files")?.status).toBe("timeout");
    expect(result.diagnostics.find((d) => d.code === "step-timeout")?.message).toContain(
      '"rule-files"',
    );
    const atReturn = parsed.count;
    // The same discovery, reads and parsing again, awaited: late work of the
    // render, started first, would have parsed its files by the time this has.
    const again = await traceRules({
      cwd: project,
      home: options.home ?? "",
      agentDir: options.agentDir ?? "",
    });
    expect(again.rules).toHaveLength(600);
    expect(parsed.count - atReturn).toBe(600);
  });

  it("stall-loops-render-skills: a render that gave up on 4,000 skill files reads none of them after it returned", async () => {
    const root = tempDir();
    const skills = join(root, "project", ".pi", "skills");
    mkdirSync(join(root, "project", ".git"), { recursive: true });
    mkdirSync(skills, { recursive: true });
    const count = 4000;
    for (let i = 0; i < count; i++) {
      writeFileSync(
        join(skills, `s${i}.md`),
        `---\nname: s${i}\ndescription: Skill ${i}.\n---\nDo ${i}.\n`,
      );
    }
    // Long enough for the walk of one folder, short of reading 4,000 files.
    const options = pinned(root, { deadlineMs: 200 });
    await renderSystemPrompt(pinned(tempDir()));
    skillsParsed.count = 0;
    const result = await renderSystemPrompt(options);
    expect(result.steps.find((s) => s.name === "skills")?.status).toBe("timeout");
    const atReturn = skillsParsed.count;
    // The same walk and reads again, awaited: late work of the render, started
    // first, would have read its files by the time this has.
    const again = await loadSkills({
      cwd: options.cwd,
      home: options.home,
      agentDir: options.agentDir,
    });
    expect(again.skills).toHaveLength(count);
    // At most the one file being read when the render returned is parsed after.
    expect(skillsParsed.count - atReturn).toBeGreaterThanOrEqual(count);
    expect(skillsParsed.count - atReturn).toBeLessThanOrEqual(count + 1);
  });

  it("stall-loops-render-context: a render that gave up on 40 context files of 100 imports each reads none of them after it returned", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    // cwd 40 folders down; each folder's AGENTS.md imports 100 files beside it.
    const folders = 40;
    const imports = 100;
    let cwd = project;
    for (let d = 0; d < folders; d++) {
      cwd = join(cwd, `d${d}`);
      mkdirSync(cwd);
      const lines = Array.from({ length: imports }, (_, i) => `@./i${i}.md`);
      writeFileSync(join(cwd, "AGENTS.md"), `${lines.join("\n")}\n`);
      for (let i = 0; i < imports; i++)
        writeFileSync(join(cwd, `i${i}.md`), `Folder ${d}, note ${i}.\n`);
    }
    const total = folders * (1 + imports);
    const options = pinned(root, { cwd, deadlineMs: DEADLINE_MS });
    await renderSystemPrompt(pinned(tempDir()));
    reads.under = `${project}/`;
    reads.count = 0;
    const result = await renderSystemPrompt(options);
    expect(result.steps.find((s) => s.name === "context")?.status).toBe("timeout");
    const atReturn = reads.count;
    expect(atReturn).toBeLessThan(total);
    // The same load again, awaited: late reads of the render, started first,
    // would have been made by the time this one's are.
    const again = await traceContextFiles({
      cwd,
      home: options.home ?? "",
      agentDir: options.agentDir ?? "",
    });
    expect(again.provenance.files).toHaveLength(folders);
    expect(again.provenance.files.flatMap((f) => f.imports)).toHaveLength(folders * imports);
    expect(reads.count - atReturn).toBe(total);
  });
});
