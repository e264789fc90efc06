import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../../src/render-system-prompt.js";
import { tempDir } from "../../api/_helpers.js";
import { rulesFixture } from "./_helpers.js";

describe("always rules are deduped paragraph by paragraph", () => {
  it("against the context files, the appended prompt and the rules kept before them; each drop is an info naming where its paragraphs are", async () => {
    const dir = rulesFixture("dedupe-against-context");
    mkdirSync(`${dir}/home/.pi/agent`, { recursive: true });
    const result = await renderSystemPrompt({
      cwd: dir,
      home: `${dir}/home`,
      agentDir: `${dir}/home/.pi/agent`,
      env: {},
      now: "2026-01-15T10:00:00Z",
      machine: { platform: "linux", arch: "x64" },
      appendSystemPrompt: "Only Zed says this.\n",
    });
    const infos = result.diagnostics.filter((d) => d.code === "rule-duplicate");
    expect(infos).toEqual([
      {
        level: "info",
        code: "rule-duplicate",
        message: `rule not inlined: every paragraph of it is already stated in ${dir}/AGENTS.md`,
        path: `${dir}/.cursorrules`,
      },
      {
        level: "info",
        code: "rule-duplicate",
        message: `rule not inlined: every paragraph of it is already stated in ${dir}/AGENTS.md`,
        path: `${dir}/GEMINI.md`,
      },
      {
        level: "info",
        code: "rule-duplicate",
        message: "rule not inlined: every paragraph of it is already stated in the appended prompt",
        path: `${dir}/.roorules`,
      },
      {
        level: "info",
        code: "rule-duplicate",
        // Its two paragraphs stand apart, in two texts: each is stated, so nothing of its own is left.
        message: `rule not inlined: every paragraph of it is already stated in the appended prompt, ${dir}/AGENTS.md`,
        path: `${dir}/.rules`,
      },
    ]);
    const section = result.sections.find((s) => s.name === "project_rules");
    expect(section).toBeUndefined();
  });
});

describe("a near-duplicate rule pair (one general rule kept for Cursor and for Windsurf)", () => {
  it("is stored once: the later rule keeps only the paragraph it adds, with a marker where the rest stood", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, ".git"));
    mkdirSync(join(dir, ".cursor", "rules"), { recursive: true });
    mkdirSync(join(dir, ".windsurf", "rules"), { recursive: true });
    const shared = [
      "# General",
      "Write TypeScript in strict mode and never silence the compiler with any or with ts-ignore comments.",
      "Every change comes with a test that fails without it; run the package's tests before you commit.",
      "## Style",
      "Prefer small pure functions to classes; keep side effects (files, network, clock) at the edges of the program, where a test can replace them.",
    ];
    writeFileSync(
      join(dir, ".cursor", "rules", "general.mdc"),
      `---\nalwaysApply: true\n---\n${shared.join("\n\n")}\n`,
    );
    writeFileSync(
      join(dir, ".windsurf", "rules", "general.md"),
      `---\ntrigger: always_on\n---\n${[...shared.slice(0, 3), "Use pnpm, never npm or yarn, to add or remove a dependency.", ...shared.slice(3)].join("\n\n")}\n`,
    );
    mkdirSync(join(dir, "home", ".pi", "agent"), { recursive: true });
    const result = await renderSystemPrompt({
      cwd: dir,
      home: join(dir, "home"),
      agentDir: join(dir, "home", ".pi", "agent"),
      env: {},
      now: "2026-01-15T10:00:00Z",
      machine: { platform: "linux", arch: "x64" },
    });
    const cursor = `${dir}/.cursor/rules/general.mdc`;
    const section = result.sections.find((s) => s.name === "project_rules")?.text ?? "";
    expect(section).toContain(
      `<rule name="general" format="windsurf" path="${dir}/.windsurf/rules/general.md">\n# General\n\n[2 paragraphs left out here: already stated in ${cursor}]\n\nUse pnpm, never npm or yarn, to add or remove a dependency.\n\n[2 paragraphs left out here: already stated in ${cursor}]\n\n</rule>`,
    );
    expect(result.diagnostics.filter((d) => d.code === "rule-paragraphs-left-out")).toEqual([
      {
        level: "info",
        code: "rule-paragraphs-left-out",
        message: `4 paragraphs left out, with a marker line: already stated in ${cursor}`,
        path: `${dir}/.windsurf/rules/general.md`,
      },
    ]);
  });
});
