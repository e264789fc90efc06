import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { cli, pinMachine } from "../cli/_run.js";

pinMachine();

// Attack review rev89g F1, F2. F1: a trusted repository spent the render's element-name meter
// (two 256 KB always rules of distinct tag names, or a 1 MB `.pi/partials/policy.md` of them),
// and the first print of its partial inside YOUR section (or YOUR SYSTEM_TEMPLATE.md) charged
// past the meter: your section failed, the prompt's work was spent, and every later section was
// left out: a 0-byte prompt, `render` exit 0, `export` wrote a 0-byte prompt file, and the
// warnings blamed your file ("for want of room", "the builtin base prompt is used instead").
// Now that print alone is left out (or read to what is left of the meter and escaped whole),
// with a `prompt-render-work` warning naming the project's partial; and no writer of a prompt
// file writes an empty one. F2: a caller's code section replacing a builtin (`sections: { cwd }`)
// was named "left out, not rendered" once the meter was spent, yet printed, moved to the end.

/** A repository's text of distinct ASCII tag names, after a line a reader reads four ways. */
function distinctNames(f: number, size: number, head = ""): string {
  let text = `${head}x\u200b\u{e0041}\u3164 y &#97;\n`;
  for (let k = 0; text.length < size; k++) text += `<${"a_".repeat(38)}${f}z${k}\n`;
  return text;
}

/** Your AGENTS.md, your section printing `{{> policy}}` (order 5), your late section and your partial. */
const YOURS: Record<string, string> = {
  "home/.pi/agent/AGENTS.md": "USER-AGENTS-MARKER: answer briefly.\n",
  "home/.pi/agent/sections/mine.md":
    "---\norder: 5\n---\n<my_policy>\nUSER-SECTION-MARKER keep this.\n{{> policy}}\n</my_policy>\n",
  "home/.pi/agent/sections/zlate.md": "---\norder: 900\n---\nUSER-LATE-SECTION-MARKER the end.\n",
  "home/.pi/agent/partials/policy.md": "USER-PARTIAL-MARKER my policy.\n",
};

/** A trusted project with `rules` always rules of 256 KB of distinct names, and `files`. */
function project(rules: number, files: Record<string, string>, yours = YOURS): string {
  const root = tempDir();
  const all: Record<string, string> = {
    ...yours,
    "project/.git/HEAD": "ref: refs/heads/main\n",
    ...files,
  };
  for (let r = 0; r < rules; r++)
    all[`project/.cursor/rules/r${r}.mdc`] = distinctNames(
      100 + r,
      256_000,
      `---\ndescription: r${r}\nalwaysApply: true\n---\n`,
    );
  writeFiles(root, all);
  return root;
}

function options(root: string) {
  return {
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "home/.pi/agent"),
    deadlineMs: 600_000,
  };
}

/** What no render may say of yours when the repository spent its meter. */
function expectYoursKept(r: Awaited<ReturnType<typeof renderSystemPrompt>>, markers: string[]) {
  for (const m of [...markers, "USER-AGENTS-MARKER", "USER-LATE-SECTION-MARKER"])
    expect(r.text).toContain(m);
  const said = r.diagnostics.map((d) => `${d.code} ${d.path ?? ""} ${d.message}`);
  expect(said.filter((s) => s.startsWith("template "))).toEqual([]);
  expect(said.filter((s) => s.startsWith("prompt-empty"))).toEqual([]);
  expect(said.filter((s) => s.includes("for want of room"))).toEqual([]);
  expect(said.filter((s) => s.includes("left out, not rendered"))).toEqual([]);
  // The builtins stay too.
  for (const name of ["preamble", "project_context", "environment"])
    expect(r.sections.map((s) => s.name)).toContain(name);
}

describe("hostile repository: its meter spent, then its partial printed in a template of yours", () => {
  it("f1.sh: two rules spend the meter; your section printing its tiny partial stays, the print alone left out", async () => {
    const root = project(2, { "project/.pi/partials/policy.md": "project policy text.\n" });
    const r = await renderSystemPrompt(options(root));
    expectYoursKept(r, ["USER-SECTION-MARKER"]);
    const work = r.diagnostics.filter(
      (d) => d.code === "prompt-render-work" && d.path === ".pi/partials/policy.md",
    );
    expect(work).toHaveLength(1);
    expect(work[0]?.message).toContain('the project\'s partial "policy" is left out');
    expect(work[0]?.message).toContain("element-name reader");
    expect(r.text).toContain("<my_policy>\nUSER-SECTION-MARKER keep this.\n");
  }, 120_000);

  it("f1d.sh: your SYSTEM_TEMPLATE.md printing the project's partial is kept, and the builtins after it", async () => {
    const yours = { ...YOURS };
    delete yours["home/.pi/agent/sections/mine.md"];
    yours["home/.pi/agent/SYSTEM_TEMPLATE.md"] =
      "USER-SYSTEM-TEMPLATE-MARKER You are my agent.\n{{> policy}}\nUSER-SYSTEM-TAIL-MARKER\n";
    const root = project(2, { "project/.pi/partials/policy.md": "project policy text.\n" }, yours);
    const r = await renderSystemPrompt(options(root));
    for (const m of [
      "USER-SYSTEM-TEMPLATE-MARKER",
      "USER-SYSTEM-TAIL-MARKER",
      "USER-AGENTS-MARKER",
    ])
      expect(r.text).toContain(m);
    expect(r.diagnostics.filter((d) => d.code === "template")).toEqual([]);
    expect(r.diagnostics.filter((d) => d.code === "prompt-empty")).toEqual([]);
    expect(r.sections.map((s) => s.name)).toContain("environment");
  }, 120_000);

  it("f1c.sh: one rule and a 1 MB partial of distinct names: read to what is left, escaped whole, said by its file", async () => {
    const root = project(1, { "project/.pi/partials/policy.md": distinctNames(7, 1_000_000) });
    const r = await renderSystemPrompt(options(root));
    expectYoursKept(r, ["USER-SECTION-MARKER"]);
    const work = r.diagnostics.filter(
      (d) => d.code === "prompt-render-work" && d.path === ".pi/partials/policy.md",
    );
    expect(work.length).toBe(1);
    expect(work[0]?.message).toContain("escaped whole because of its cost");
    // Every opener of the project's text written `&lt;`, none raw.
    expect(r.text).toContain(`&lt;${"a_".repeat(38)}7z0`);
    expect(r.text).not.toContain(`<${"a_".repeat(38)}7z`);
  }, 120_000);

  it("f1c.sh 1000000: no rules, only a 1 MB partial of distinct names: your section and the rest stay", async () => {
    const root = project(0, { "project/.pi/partials/policy.md": distinctNames(7, 1_000_000) });
    const r = await renderSystemPrompt(options(root));
    expectYoursKept(r, ["USER-SECTION-MARKER"]);
    expect(r.text).not.toContain(`<${"a_".repeat(38)}7z`);
  }, 120_000);

  it("a project's section after the meter is spent is still stopped: the spending takes out only the project's", async () => {
    const root = project(2, {
      "project/.pi/partials/policy.md": "project policy text.\n",
      "project/.pi/sections/aaa.md": "---\norder: 1\n---\nPROJECT-SECTION-MARKER <b>x</b>\n",
    });
    const r = await renderSystemPrompt(options(root));
    expect(r.text).not.toContain("PROJECT-SECTION-MARKER");
    for (const m of ["USER-SECTION-MARKER", "USER-AGENTS-MARKER", "USER-LATE-SECTION-MARKER"])
      expect(r.text).toContain(m);
    const stop = r.diagnostics.find((d) => d.code === "template");
    expect(stop?.path).toContain("aaa.md");
  }, 120_000);
});

describe("hostile repository: the meter spent, a caller's code section replacing a builtin (f2.sh)", () => {
  it("is placed where the builtin is, and never named left out", async () => {
    const root = project(4, {
      "project/.pi/sections/aaa.md": "---\norder: 1\n---\nProject note <b>x</b>.\n",
    });
    const r = await renderSystemPrompt({
      ...options(root),
      sections: { zcode: "CODE-SECTION-MARKER mine", cwd: "CODE-CWD-MARKER mine" },
    });
    // The project's section is stopped by the meter its rules spent: the prompt's work is spent.
    expect(r.diagnostics.find((d) => d.code === "template")?.path).toContain("aaa.md");
    expect(r.text).toContain("CODE-CWD-MARKER mine");
    const names = r.sections.map((s) => s.name);
    // The builtin cwd's place: before your order-900 section, as without the rules.
    expect(names.indexOf("cwd")).toBeLessThan(names.indexOf("zlate"));
    const work = r.diagnostics.filter((d) => d.code === "prompt-render-work");
    for (const d of work) expect(d.message).not.toMatch(/not rendered: .*\bcwd\b/);
  }, 120_000);
});

describe("no writer of a prompt file writes an empty prompt", () => {
  /** Every builtin section switched off by the project: the prompt is empty. */
  function emptyProject(): string {
    const root = tempDir();
    const builtins = readdirSync(join(import.meta.dirname, "../../prompts/sections"))
      .filter((f) => f.endsWith(".md") && !f.includes("@"))
      .map((f) => f.slice(0, -3));
    const files: Record<string, string> = { "project/.git/HEAD": "ref: refs/heads/main\n" };
    for (const n of builtins) files[`project/.pi/sections/${n}.md`] = "---\nenabled: false\n---\n";
    writeFiles(root, files);
    return root;
  }

  it("export refuses, exit 1, the file left as it was; render -o too; render to stdout as before", async () => {
    const root = emptyProject();
    const out = join(root, "project/prompt.md");
    const exported = await cli(root, ["export", "--agent", "claude-code", "--out", out]);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain("[prompt-empty]");
    expect(exported.stderr).toContain("the prompt is empty");
    expect(exported.stdout).toBe("");
    expect(existsSync(out)).toBe(false);
    writeFileSync(out, "KEPT\n");
    const rendered = await cli(root, ["render", "-o", out]);
    expect(rendered.code).toBe(1);
    expect(readFileSync(out, "utf8")).toBe("KEPT\n");
    // To stdout: no file, the same error, exit 0 (1 under --strict), as test/cli/silent.test.ts.
    expect((await cli(root, ["render"])).code).toBe(0);
  }, 60_000);
});
