import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/engine/index.js";
import { renderSystemPrompt } from "../../src/index.js";
import { preparePrompt, renderPrepared } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { EVERY_STEP, words } from "./_filler.js";

// Review rev38b: fitting (a token budget, or room for your texts past the 8 MiB
// caps) rendered every section again in each of its renders, and spent its
// work on what a trusted project's sections made it do. Under --max-tokens, a
// project's 16 sections of 512 KB each declaring every step took 64 renders of
// the 8 MiB prompt (1.3 GB, 17 s of CPU); without a budget, a project's loops,
// its 990 one-word sections, or its overrides of project_rules and skills
// declaring every step spent room fitting's work before the context-files step,
// and your AGENTS.md stayed out, with a warning that said the repository's text
// had been cut first. Room fitting also gave your skill, which the first
// render had placed, for your rule. Now a section whose patch did not change is
// given its earlier text, a project's sections' steps have renders of their own
// (16), and no section of yours is traded for another.

const USER_AGENTS = "USER-AGENTS-MARKER always be nice";
const USER_RULE = "USER-RULE-MARKER rule always";
const USER_SKILL = "USER-SKILL-MARKER my skill";

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

  it("a project's overrides of project_rules and skills declaring every step do not spend room fitting's renders", async () => {
    const { root, project, sections } = fixture();
    mkdirSync(join(root, "agent", "skills", "mine"), { recursive: true });
    writeFileSync(
      join(root, "agent", "skills", "mine", "SKILL.md"),
      `---\nname: mine\ndescription: ${USER_SKILL}\n---\nBody.\n`,
    );
    // Small files, large output: the repository's always rules printed four times each.
    const body = "{{#each alwaysRules}}{{content}}\n{{/each}}".repeat(4);
    const steps = `shrink: { priority: 0, steps: ${EVERY_STEP} }`;
    writeFileSync(join(sections, "project_rules.md"), `---\norder: 75\n${steps}\n---\n${body}\n`);
    writeFileSync(join(sections, "skills.md"), `---\norder: 110\n${steps}\n---\n${body}\n`);
    repositoryData(project, false);
    for (let i = 1; i <= 5; i++) {
      writeFileSync(
        join(project, ".cursor", "rules", `a${i}.mdc`),
        `---\nalwaysApply: true\n---\nalways rule ${i} ${"rule text ".repeat(6000)}\n`,
      );
    }
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000, workspaceTree: true }),
    );
    expect(result.text).toContain(USER_AGENTS);
    expect(result.diagnostics.map((d) => d.code)).toContain("room-cut");
    expect(result.diagnostics.map((d) => d.code)).not.toContain("budget-fit-cut");
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

  it("trusted sections whose loops stop at a render's or the prompt's helper calls leave your AGENTS.md its room", async () => {
    const { root, project, sections } = fixture();
    // 60 rules looped three deep: 216,000 bodies, past the 200,000 one render may make; the
    // second section crosses the prompt's 400,000.
    for (const name of ["loop", "loop2"]) {
      writeFileSync(
        join(sections, `${name}.md`),
        "---\norder: 300\n---\nx{{#each onDemandRules}}{{#each ../onDemandRules}}{{#each ../../onDemandRules}}{{/each}}{{/each}}{{/each}}x\n",
      );
    }
    mkdirSync(join(project, ".cursor", "rules"), { recursive: true });
    for (let i = 0; i < 60; i++) {
      writeFileSync(
        join(project, ".cursor", "rules", `l${i}.mdc`),
        `---\nglobs: src/**/*.ts\ndescription: loop rule ${i}\n---\nx\n`,
      );
    }
    repositoryData(project, false);
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000, workspaceTree: true }),
    );
    // Before: budget-fit-cut after 5 renders (1,998,547 helper calls), your AGENTS.md out.
    expect(result.text).toContain(USER_AGENTS);
    expect(result.text).toContain(USER_RULE);
    // rev54a F8: the builtin sections after the loops now render before them (a project's
    // sections render with the work left), and room fitting's cuts change that work, so the
    // second loop, stopped at the prompt's limit, is rendered again in each fitting render and
    // fitting may stop at its work limit (budget-fit-cut): your AGENTS.md has its room all the same.
    const stops = result.diagnostics.filter((d) => d.code === "template");
    expect(stops.every((d) => d.path?.includes("/.pi/sections/loop"))).toBe(true);
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

  it("when room fitting stops at its work limit, the warnings say so", async () => {
    // Your own sections declaring every step are in fitting's plan: 20 of them at priority 0,
    // printing none of the data, spend its 16 renders before the context-files step.
    const { root } = fixture();
    mkdirSync(join(root, "agent", "sections"), { recursive: true });
    for (let i = 0; i < 20; i++) {
      writeFileSync(
        join(root, "agent", "sections", `tiny${i}.md`),
        `---\norder: ${200 + i}\nshrink: { priority: 0, steps: ${EVERY_STEP} }\n---\ntiny ${i}\n`,
      );
    }
    mkdirSync(join(root, "project", ".cursor", "rules"), { recursive: true });
    for (let i = 1; i <= 5; i++) {
      writeFileSync(
        join(root, "project", ".cursor", "rules", `g${i}.mdc`),
        `---\nglobs: src/**/*.ts\ndescription: glob rule ${i}\n---\nx\n`,
      );
    }
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    const codes = result.diagnostics.map((d) => d.code);
    // Before: the first render was returned without fitting's warning, and user-text-left-out
    // said the repository's text had been cut first.
    expect(codes).toContain("budget-fit-cut");
    expect(result.diagnostics.find((d) => d.code === "budget-fit-cut")?.message).toMatch(
      /^making room for your own texts in the prompt's 8 MiB stopped at its work limit/,
    );
    expect(result.text).not.toContain(USER_AGENTS);
    const left = result.diagnostics.find((d) => d.code === "user-text-left-out");
    expect(left?.message).not.toContain("cut first");
    expect(left?.message).toContain("making room stopped at fitting's work limit");
  });

  it("room fitting never gives your skill, placed by the first render, for your rule", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".pi", "sections"), { recursive: true });
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, ".cursor", "rules"), { recursive: true });
    mkdirSync(join(root, "agent", "rules"), { recursive: true });
    mkdirSync(join(root, "agent", "skills", "mine"), { recursive: true });
    writeFileSync(join(root, "agent", "AGENTS.md"), `# Mine\n${USER_AGENTS}\n`);
    writeFileSync(
      join(root, "agent", "rules", "mine.md"),
      `---\nalwaysApply: true\n---\n${USER_RULE}\n`,
    );
    writeFileSync(
      join(root, "agent", "skills", "mine", "SKILL.md"),
      `---\nname: mine\ndescription: ${USER_SKILL}\n---\nBody.\n`,
    );
    // 200 always rules of ~300 bytes: fine steps for the always-rules bisection.
    for (let i = 0; i < 200; i++) {
      writeFileSync(
        join(project, ".cursor", "rules", `a${i}.mdc`),
        `---\nalwaysApply: true\n---\nREPO-ALWAYS-${i} ${"word ".repeat(56)}\n`,
      );
    }
    const total = 8_345_000;
    const n = Math.ceil(total / 1_000_000);
    for (let i = 0; i < n; i++) {
      writeFileSync(
        join(project, ".pi", "sections", `big${i}.md`),
        `---\norder: ${i + 1}\n---\n${words(`w${i}`, Math.floor(total / n))}\n`,
      );
    }
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    // Before: your rule came back, your skill went, 17 repository always rules stayed.
    expect(result.text).toContain(USER_RULE);
    expect(result.text).toContain(USER_SKILL);
  });

  it("your own section of your agent dir gets room: the repository's context files and rules go first", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".pi", "sections"), { recursive: true });
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, ".cursor", "rules"), { recursive: true });
    mkdirSync(join(root, "agent", "sections"), { recursive: true });
    writeFileSync(join(root, "agent", "AGENTS.md"), `# Mine\n${USER_AGENTS}\n`);
    writeFileSync(
      join(root, "agent", "sections", "mine.md"),
      `---\norder: 200\n---\nUSER-SECTION-MARKER ${"u".repeat(100_000)}\n`,
    );
    for (let i = 0; i < 7; i++) {
      writeFileSync(
        join(project, ".pi", "sections", `big${i}.md`),
        `---\norder: ${i + 1}\n---\n${words(`w${i}`, 1_008_571)}\n`,
      );
    }
    writeFileSync(join(project, "AGENTS.md"), `# repo\n${words("ra", 250_000)}\n`);
    writeFileSync(join(project, "CLAUDE.md"), `# repo2\n${words("rc", 250_000)}\n`);
    for (let i = 0; i < 4; i++) {
      writeFileSync(
        join(project, ".cursor", "rules", `a${i}.mdc`),
        `---\nalwaysApply: true\n---\n${words(`r${i}u`, 250_000)}\n`,
      );
    }
    const result = await renderSystemPrompt(
      pinned(root, {
        projectTrusted: true,
        deadlineMs: 60_000,
        sections: { caller: "CALLER-SECTION-MARKER" },
      }),
    );
    // Before: only prompt-too-large named it; 1.5 MB of the repository's text stayed.
    expect(result.text).toContain("USER-SECTION-MARKER");
    expect(result.text).toContain("CALLER-SECTION-MARKER");
    expect(result.diagnostics.map((d) => d.code)).toContain("room-cut");
  });
});

describe("hostile repository: a project's sections that fill the 8 MiB alone", () => {
  it("leave your own section out with a user-text-left-out warning naming it", async () => {
    const { root } = fixture(1_048_500);
    mkdirSync(join(root, "agent", "sections"), { recursive: true });
    writeFileSync(
      join(root, "agent", "sections", "mine.md"),
      `---\norder: 200\n---\nUSER-SECTION-MARKER ${"u".repeat(10_000)}\n`,
    );
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    expect(result.text).not.toContain("USER-SECTION-MARKER");
    const left = result.diagnostics.filter((d) => d.code === "user-text-left-out");
    expect(left.map((d) => d.message).join("\n")).toMatch(
      /your own sections? [^\n]*"mine"[^\n]* left out for want of room/,
    );
  });
});

describe("hostile repository: sections that spend the prompt's work (accepted: a trusted project may switch sections off)", () => {
  it("the warning for your AGENTS.md left out says it was not for want of room, not that the repository's text was cut first", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".pi", "sections"), { recursive: true });
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, ".cursor", "rules"), { recursive: true });
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(join(root, "agent", "AGENTS.md"), `# Mine\n${USER_AGENTS}\n`);
    // rev54a F8: a trusted project's loops render after the builtin sections and yours, so only
    // sections of yours can spend the work your AGENTS.md needs now.
    mkdirSync(join(root, "agent", "sections"), { recursive: true });
    for (const name of ["a-loop", "b-loop"]) {
      writeFileSync(
        join(root, "agent", "sections", `${name}.md`),
        "---\norder: 1\n---\nx{{#each onDemandRules}}{{#each ../onDemandRules}}{{#each ../../onDemandRules}}{{/each}}{{/each}}{{/each}}x\n",
      );
    }
    for (let i = 0; i < 60; i++) {
      writeFileSync(
        join(project, ".cursor", "rules", `l${i}.mdc`),
        `---\nglobs: src/**/*.ts\ndescription: loop rule ${i}\n---\nx\n`,
      );
    }
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    expect(result.text).not.toContain(USER_AGENTS);
    expect(result.diagnostics.map((d) => d.code)).toContain("prompt-render-work");
    const left = result.diagnostics.find((d) => d.code === "user-text-left-out");
    // Before: "left out for want of room ... even with the repository's text in it and in the
    // other sections cut first", though no room was made and nothing was cut.
    expect(left?.message).toMatch(
      /^section "project_context" is not in the prompt, and not for want of room/,
    );
    expect(left?.message).not.toContain("cut first");
  });
});
