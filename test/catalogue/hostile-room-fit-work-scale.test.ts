import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/engine/index.js";
import { renderSystemPrompt } from "../../src/index.js";
import { preparePrompt, renderPrepared } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Review rev38b: fitting (a token budget, or room for your texts past the 8 MiB
// caps) rendered every section again in each of its renders, and spent its
// work on what a trusted project's sections made it do. Under --max-tokens, a
// project's 16 sections of 512 KB each declaring every step took 64 renders of
// the 8 MiB prompt (1.3 GB, 17 s of CPU); without a budget, a project's loops
// or its 990 one-word sections spent room fitting's work before the
// context-files step, and your AGENTS.md stayed out. Now a section whose patch
// did not change is given its earlier text, and a project's sections' steps
// have renders of their own (16).

const USER_AGENTS = "USER-AGENTS-MARKER always be nice";
const USER_RULE = "USER-RULE-MARKER rule always";
const EVERY_STEP =
  "[tree-lines, tree-depth, agents-md, skill-descriptions, skill-list, context-files, rule-descriptions, always-rules, appended-files]";

/** Distinct words, `chars` characters: nothing could make them shorter. */
function words(tag: string, chars: number): string {
  const out: string[] = [];
  let n = 0;
  for (let k = 0; n < chars; k++) {
    const word = `${tag}x${k.toString(36)}`;
    out.push(word);
    n += word.length + 1;
  }
  return out.join(" ").slice(0, chars);
}

/**
 * A trusted project with 8 sections of ~1 MiB (order 1…8) and a 100 KB
 * AGENTS.md, so that project_context has no room; the user's AGENTS.md and
 * always rule.
 */
function fixture(big = 1_043_000): { root: string; project: string; sections: string } {
  const root = tempDir();
  const project = join(root, "project");
  const sections = join(project, ".pi", "sections");
  mkdirSync(sections, { recursive: true });
  mkdirSync(join(project, ".git"), { recursive: true });
  for (let i = 0; i < 8; i++) {
    writeFileSync(
      join(sections, `big${i}.md`),
      `---\norder: ${i + 1}\n---\n${words(`w${i}`, big)}\n`,
    );
  }
  writeFileSync(join(project, "AGENTS.md"), `${"repository words ".repeat(6000)}\n`);
  mkdirSync(join(root, "agent", "rules"), { recursive: true });
  writeFileSync(join(root, "agent", "AGENTS.md"), `# Mine\n${USER_AGENTS}\n`);
  writeFileSync(
    join(root, "agent", "rules", "mine.md"),
    `---\nalwaysApply: true\n---\n${USER_RULE}\n`,
  );
  return { root, project, sections };
}

/**
 * Always and glob rules, skills, nested AGENTS.md files, an APPEND_SYSTEM.md and
 * (`agents`) an AGENTS.md of the repository's: what the builtin steps cut.
 */
function repositoryData(project: string, agents = true): void {
  for (let i = 1; i <= 5; i++) {
    mkdirSync(join(project, ".pi", "skills", `s${i}`), { recursive: true });
    writeFileSync(
      join(project, ".pi", "skills", `s${i}`, "SKILL.md"),
      `---\nname: s${i}\ndescription: repository skill ${i} ${"d ".repeat(30)}\n---\nbody\n`,
    );
  }
  mkdirSync(join(project, ".cursor", "rules"), { recursive: true });
  for (let i = 1; i <= 5; i++) {
    writeFileSync(
      join(project, ".cursor", "rules", `a${i}.mdc`),
      `---\nalwaysApply: true\n---\nalways rule ${i} ${"word ".repeat(100)}\n`,
    );
    writeFileSync(
      join(project, ".cursor", "rules", `g${i}.mdc`),
      `---\nglobs: src/**/*.ts\ndescription: glob rule ${i}\n---\nx\n`,
    );
  }
  for (let i = 1; i <= 10; i++) {
    mkdirSync(join(project, `d${i}`));
    writeFileSync(join(project, `d${i}`, "AGENTS.md"), `nested ${i}\n`);
  }
  if (agents) writeFileSync(join(project, "AGENTS.md"), `# proj ${"n ".repeat(2000)}\n`);
  writeFileSync(join(project, ".pi", "APPEND_SYSTEM.md"), `project append ${"n ".repeat(300)}\n`);
}

/** An engine counting the characters of the templates it renders whose text includes `marker`. */
function counting(marker: string): { engine: Engine; chars: () => number } {
  const base = createEngine();
  let chars = 0;
  const engine: Engine = Object.create(base);
  engine.render = (...args: Parameters<Engine["render"]>) => {
    if (args[0].includes(marker)) chars += args[0].length;
    return base.render(...args);
  };
  return { engine, chars: () => chars };
}

describe("hostile repository: what a project's sections make fitting do", () => {
  it("under --max-tokens, 16 project sections declaring every step are rendered again at most 16 times", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const sections = join(project, ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    mkdirSync(join(project, ".git"), { recursive: true });
    for (let i = 0; i < 16; i++) {
      writeFileSync(
        join(sections, `big${i}.md`),
        `---\norder: ${i + 1}\nshrink: { priority: 1, steps: ${EVERY_STEP} }\n---\nHOSTILE ${words(`w${i}`, 20_000)}\n`,
      );
    }
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(join(root, "agent", "AGENTS.md"), `# Mine\n${USER_AGENTS}\n`);
    // The repository's data every declared step sees, none of which the sections print.
    repositoryData(project);
    const prepared = await preparePrompt(
      pinned(root, {
        projectTrusted: true,
        deadlineMs: 60_000,
        maxPromptTokens: 1000,
        workspaceTree: true,
      }),
    );
    const { engine, chars } = counting("HOSTILE");
    const result = renderPrepared(prepared, engine);
    // Before: each of fitting's 64 renders rendered the 16 sections again (~20 MB).
    // Now: the first render, and one section afresh for each of the project's 16 attempts.
    expect(chars()).toBeLessThan(40 * 20_100);
    expect(result.budget?.fits).toBe(false);
    const cut = result.diagnostics.find((d) => d.code === "budget-fit-cut");
    expect(cut?.message).toContain(
      "took the project's sections' own shrink steps in at most 16 renders",
    );
  });

  it("under a token budget the prompt meets, 20 tiny project sections declaring every step leave your AGENTS.md its room", async () => {
    const { root, project, sections } = fixture();
    repositoryData(project, false);
    for (let i = 0; i < 20; i++) {
      writeFileSync(
        join(sections, `tiny${i}.md`),
        `---\norder: ${200 + i}\nshrink: { priority: 0, steps: ${EVERY_STEP} }\n---\ntiny ${i}\n`,
      );
    }
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000, maxPromptTokens: 20_000_000 }),
    );
    expect(result.text).toContain(USER_AGENTS);
    expect(result.text).toContain(USER_RULE);
    expect(result.text).not.toContain("repository words repository words");
  });

  it("two trusted sections of nested loops are not rendered again in each fitting render", async () => {
    const { root, project, sections } = fixture();
    for (const name of ["loop", "loop2"]) {
      writeFileSync(
        join(sections, `${name}.md`),
        "---\norder: 300\n---\nx{{#each onDemandRules}}{{#each ../onDemandRules}}\n{{/each}}{{/each}}x\n",
      );
    }
    for (const dir of [".cursor/rules", ".windsurf/rules"]) {
      mkdirSync(join(project, dir), { recursive: true });
      const ext = dir.startsWith(".cursor") ? "mdc" : "md";
      for (let i = 0; i < 195; i++) {
        writeFileSync(
          join(project, dir, `g${i}.${ext}`),
          `---\nglobs: src/**/*.ts\ntrigger: glob\ndescription: glob rule ${i}\n---\nx\n`,
        );
      }
    }
    repositoryData(project, false);
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000, workspaceTree: true }),
    );
    // Before: budget-fit-cut after 6 renders (1,849,515 helper calls), your AGENTS.md out.
    expect(result.text).toContain(USER_AGENTS);
    expect(result.diagnostics.map((d) => d.code)).not.toContain("budget-fit-cut");
  });

  it("990 one-word trusted sections do not spend room fitting's section renders", async () => {
    const { root, project, sections } = fixture();
    repositoryData(project, false);
    for (let i = 0; i < 990; i++) {
      writeFileSync(join(sections, `t${i}.md`), `---\norder: ${300 + i}\n---\nt\n`);
    }
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    expect(result.text).toContain(USER_AGENTS);
    expect(result.diagnostics.map((d) => d.code)).not.toContain("budget-fit-cut");
  });
});
