import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ancestorsOf } from "../../src/_paths.js";
import { explainPrompt } from "../../src/author/explain/explain.js";
import { preparePrompt, renderPrepared } from "../../src/render-system-prompt.js";
import { tokenCounter } from "../../src/tokens.js";
import { BUILTIN, copyScenario, NOW, pinned, tempDir } from "../api/_helpers.js";
import { cli, pinMachine } from "./_run.js";

pinMachine();

const count = tokenCounter();
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/**
 * The scenario: the project overrides `rules` (`{{> base}}` plus a line, with
 * `maxTokens: 100`, which it overruns) and adds `build` (volatile, order 5);
 * the user layer adds `team`; a skill and a prompt template; the agent dir's
 * AGENTS.md is repeated by the project's (both stay: the user's file outranks
 * the project's, whose one-line copy is shorter than a marker), which imports docs/style.md (which
 * imports docs/tabs.md) and docs/big.md, written here over the 256 KiB cap.
 */
function scenario() {
  const root = copyScenario("explain", "project");
  const project = join(root, "project");
  mkdirSync(join(project, ".git"));
  writeFileSync(join(project, "docs", "big.md"), "Background. ".repeat(30_000));
  return { root, project, agent: join(root, "agent") };
}

/** Every number a test cannot know in advance (timings) as `expect.any(Number)`. */
const STEPS = [
  ...["builtin", "user", "project", "context", "rule-files", "skills", "environment"].map(
    (name) => ({
      name,
      status: "ok",
      ms: expect.any(Number),
    }),
  ),
  // No --git, no --tree: git does not run, the workspace tree is not walked.
  { name: "git", status: "skipped", ms: 0 },
  { name: "tree", status: "skipped", ms: 0 },
];

describe("sysprompt explain", () => {
  it("--json: a row per section, the total, the cache-stable prefix, context files, counts, steps", async () => {
    const { root, project, agent } = scenario();
    // The same render through the library, to know the texts. Token counts of
    // sections that hold the temp folder's random name cannot be written down.
    const prepared = await preparePrompt(pinned(root));
    const reference = renderPrepared(prepared);
    const text = (name: string) => reference.sections.find((s) => s.name === name)?.text ?? "";
    const size = (name: string) => ({ bytes: bytes(text(name)), tokens: count(text(name)) });
    const builtin = (name: string, order: number) => ({
      name,
      order,
      layer: "builtin",
      path: join(BUILTIN, "sections", `${name}.md`),
      overrides: null,
      ...size(name),
      cache: "stable",
      volatile: false,
      maxTokens: null,
      variant: null,
    });
    const userContent = prepared.data.contextFiles[0]?.content ?? "";
    const content = prepared.data.contextFiles[1]?.content ?? "";
    const stable = reference.text.slice(0, reference.text.indexOf("<build>"));
    const throughStable = reference.text.slice(0, reference.text.indexOf("<environment>"));

    const out = await cli(root, ["explain", "--json"]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      tokenizer: { encoding: "o200k_base", estimate: true },
      sections: [
        builtin("preamble", 10),
        builtin("tools", 20),
        {
          ...builtin("rules", 30),
          layer: "project",
          path: `${project}/.pi/sections/rules.md`,
          overrides: "builtin",
          maxTokens: 100,
        },
        {
          name: "team",
          order: 65,
          layer: "user",
          path: `${agent}/sections/team.md`,
          overrides: null,
          bytes: 27,
          tokens: 10,
          cache: "stable",
          volatile: false,
          maxTokens: null,
          variant: null,
        },
        builtin("project_context", 70),
        builtin("skills", 110),
        builtin("cwd", 120),
        { ...builtin("environment", 140), cache: "session" },
        { ...builtin("date", 180), cache: "session" },
        {
          name: "build",
          order: 5,
          layer: "project",
          path: `${project}/.pi/sections/build.md`,
          overrides: null,
          bytes: 29,
          tokens: 12,
          cache: "volatile",
          volatile: true,
          maxTokens: null,
          variant: null,
        },
      ],
      total: { sections: 10, bytes: bytes(reference.text), tokens: count(reference.text) },
      // Everything before the first volatile section (build: volatile ones go
      // last, whatever their order), with the blank line before it.
      cacheStablePrefix: {
        sections: 9,
        bytes: bytes(stable),
        tokens: count(stable),
        firstVolatile: "build",
      },
      // By class: the stable run ends with cwd; with the session run, with date.
      cachePrefix: [
        {
          through: "stable",
          sections: 7,
          bytes: bytes(throughStable),
          tokens: count(throughStable),
          endsWith: "cwd",
        },
        {
          through: "session",
          sections: 9,
          bytes: bytes(stable),
          tokens: count(stable),
          endsWith: "date",
        },
      ],
      contextFiles: {
        folders: 1 + ancestorsOf(project).length,
        files: [
          {
            path: `${agent}/AGENTS.md`,
            status: "loaded",
            containedIn: null,
            bytes: bytes(userContent),
            tokens: count(userContent),
            imports: [],
            cut: [],
          },
          {
            path: `${project}/AGENTS.md`,
            status: "loaded",
            containedIn: null,
            bytes: bytes(content),
            tokens: count(content),
            imports: [
              `${project}/docs/style.md`,
              `${project}/docs/tabs.md`,
              `${project}/docs/big.md`,
            ],
            cut: [`${project}/docs/big.md`],
          },
        ],
      },
      rules: [],
      skills: { listed: 1, tool: "read" },
      generalRules: null,
      templates: { sections: 17, partials: 0, promptTemplates: 1 },
      steps: STEPS,
      timing: { gatherMs: expect.any(Number), renderMs: expect.any(Number) },
      // The two flags the test's CLI passes: the settings not at their default (no config key
      // is set, and there is no sysprompt.yaml).
      settings: [
        { option: "agentDir", key: "agentDir", value: agent, source: "cli", flag: "--agent-dir" },
        { option: "now", key: "now", value: NOW, source: "cli", flag: "--now" },
      ],
      diagnostics: [
        {
          level: "warning",
          code: "context-cut",
          message:
            "file is 360000 bytes, over the 262144-byte limit: cut after 262144 bytes, 97856 left out",
          path: `${project}/docs/big.md`,
        },
        {
          level: "warning",
          code: "section-max-tokens",
          message: `section "rules" is about ${count(text("rules"))} tokens (o200k_base estimate), over its maxTokens of 100`,
          path: `${project}/.pi/sections/rules.md`,
        },
      ],
    });
    // Fixed text, fixed tokenizer: a count that can be written down.
    expect(size("team")).toEqual({ bytes: 27, tokens: 10 });
  });

  it("prints the report as text, paths under --cwd relative to it, diagnostics on stderr", async () => {
    const { root, project, agent } = scenario();
    const out = await cli(root, ["explain"]);
    const report = JSON.parse((await cli(root, ["explain", "--json"])).stdout);
    const n = (name: string) => report.sections.find((s: { name: string }) => s.name === name);
    const b = (name: string) => join(BUILTIN, "sections", `${name}.md`);
    // Timings differ from run to run.
    const stdout = out.stdout
      .replace(/ +(\d+\.\d|MS)$/gm, (_, ms) => `  ${ms === "MS" ? ms : "T"}`)
      .replace(/\d+\.\d ms/g, "T ms");
    const [user, file] = report.contextFiles.files;
    const rows = [
      ["ORDER", "SECTION", "LAYER", "FILE", "BYTES", "TOKENS", "FLAGS"],
      ["10", "preamble", "builtin", b("preamble"), "", "", "-"],
      ["20", "tools", "builtin", b("tools"), "", "", "-"],
      [
        "30",
        "rules",
        "project",
        ".pi/sections/rules.md",
        "",
        "",
        "maxTokens:100,overrides:builtin",
      ],
      ["65", "team", "user", `${agent}/sections/team.md`, "27", "10", "-"],
      ["70", "project_context", "builtin", b("project_context"), "", "", "-"],
      ["110", "skills", "builtin", b("skills"), "", "", "-"],
      ["120", "cwd", "builtin", b("cwd"), "", "", "-"],
      ["140", "environment", "builtin", b("environment"), "", "", "session"],
      ["180", "date", "builtin", b("date"), "", "", "session"],
      ["5", "build", "project", ".pi/sections/build.md", "29", "12", "volatile"],
    ].map((row, i) => {
      if (i === 0 || row[4] !== "") return row;
      const s = n(row[1] ?? "");
      return [...row.slice(0, 4), String(s.bytes), String(s.tokens), ...row.slice(6)];
    });
    const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => r[c]?.length ?? 0))) ?? [];
    const table = rows.map((r) =>
      r
        .map((cell, c) =>
          c === 6
            ? cell
            : [0, 4, 5].includes(c)
              ? cell.padStart(widths[c] ?? 0)
              : cell.padEnd(widths[c] ?? 0),
        )
        .join("  ")
        .trimEnd(),
    );
    expect(stdout).toBe(
      [
        ...table,
        `total: 10 sections, ${report.total.bytes} bytes, ~${report.total.tokens} tokens (o200k_base estimate)`,
        `cache-stable prefix: ~${report.cacheStablePrefix.tokens} tokens, ${report.cacheStablePrefix.bytes} bytes: 9 sections before "build", the first volatile one`,
        `cache prefix through stable: ~${report.cachePrefix[0].tokens} tokens, ${report.cachePrefix[0].bytes} bytes, 7 sections, ends with "cwd"`,
        `cache prefix through session: ~${report.cachePrefix[1].tokens} tokens, ${report.cachePrefix[1].bytes} bytes, 9 sections, ends with "date"`,
        `settings: agentDir ${agent} (--agent-dir), now ${NOW} (--now)`,
        "",
        `context files: 2 loaded (${report.contextFiles.folders} folders searched)`,
        `  loaded   ${agent}/AGENTS.md  ${user.bytes} bytes, ~${user.tokens} tokens`,
        `  loaded   AGENTS.md  ${file.bytes} bytes, ~${file.tokens} tokens`,
        "    imports  docs/style.md, docs/tabs.md, docs/big.md",
        "    cut      docs/big.md",
        "",
        "skills: 1 listed in the prompt (loaded with the read tool)",
        "templates: 17 sections, 0 partials, 1 prompt template",
        "",
        "STEP         STATUS  MS",
        ...report.steps.map(
          (s: { name: string; status: string }) => `${s.name.padEnd(11)}  ${s.status}  T`,
        ),
        "gathered in T ms, rendered in T ms",
        "",
      ].join("\n"),
    );
    expect(out.stderr).toBe(
      [
        `warning ${project}/docs/big.md [context-cut] file is 360000 bytes, over the 262144-byte limit: cut after 262144 bytes, 97856 left out`,
        `warning ${project}/.pi/sections/rules.md [section-max-tokens] section "rules" is about ${n("rules").tokens} tokens (o200k_base estimate), over its maxTokens of 100`,
        "",
      ].join("\n"),
    );
    expect(out.code).toBe(0);
  });

  it("with no volatile section, the cache-stable prefix is the whole prompt", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project", ".pi", "sections"), { recursive: true });
    writeFileSync(
      join(root, "project", ".pi", "sections", "date.md"),
      "---\nenabled: false\n---\n",
    );
    const report = await explainPrompt(pinned(root));
    expect(report.sections.some((s) => s.volatile)).toBe(false);
    expect(report.cacheStablePrefix).toEqual({
      sections: report.total.sections,
      bytes: report.total.bytes,
      tokens: report.total.tokens,
      firstVolatile: null,
    });
    const out = await cli(root, ["explain"]);
    expect(out.stdout).toContain(
      `\ncache-stable prefix: the whole prompt, ~${report.total.tokens} tokens (no volatile section)\n`,
    );
  });

  it("names the variant that served a section, and what a token budget cut", async () => {
    const root = tempDir();
    const options = pinned(root, { model: "gpt-4o-mini", maxPromptTokens: 10 });
    const report = await explainPrompt(options);
    const result = renderPrepared(await preparePrompt(options));
    expect(report.sections.map((s) => [s.name, s.variant])).toEqual(
      result.sections.map((s) => [s.name, s.name === "rules" ? "small" : null]),
    );
    expect(report.budget).toEqual(result.budget);
    const out = await cli(root, ["explain", "--model", "gpt-4o-mini", "--max-tokens", "10"]);
    expect(out.stdout).toMatch(
      /^ +30 +rules +builtin +\S+rules@small.md .* variant:small,overrides:builtin$/m,
    );
    expect(out.stdout).toContain(
      `\nbudget: ~${result.budget?.tokens} of 10 tokens (from ~${result.budget?.initialTokens}), does not fit\n`,
    );
  });

  it("--strict exits 1 on an error diagnostic; a bad flag is exit 2 with nothing on stdout", async () => {
    const root = copyScenario("cli", "bad-override");
    const strict = await cli(root, ["explain", "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/^error .*tools\.md:\d+:\d+ \[template\]/);
    expect(await cli(root, ["explain", "--now", "yesterday"])).toEqual({
      code: 2,
      stdout: "",
      stderr: expect.stringContaining("--now"),
    });
  });

  it("colours only on a terminal, and never with NO_COLOR", async () => {
    const { root, project } = scenario();
    const run = async (isTTY: boolean, env: Record<string, string>) => {
      let stdout = "";
      const { run } = await import("../../src/cli/main.js");
      const argv = ["explain", "--agent-dir", join(root, "agent"), "--now", "2026-01-15"];
      const io = {
        stdout: (t: string) => {
          stdout += t;
        },
        stderr: () => undefined,
      };
      await run(argv, { ...io, cwd: project, env, home: join(root, "home"), isTTY });
      return stdout;
    };
    const ESC = "\u001b[";
    expect(await run(true, {})).toContain(ESC);
    expect(await run(true, { NO_COLOR: "1" })).not.toContain(ESC);
    expect(await run(false, {})).not.toContain(ESC);
  });

  it("--help shows an example", async () => {
    const out = await cli(tempDir(), ["explain", "--help"], false);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(
      "Example:\n  $ sysprompt explain --model gpt-5    # tokens are an o200k estimate\n",
    );
  });
});
