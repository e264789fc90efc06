import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { globMatcher } from "../../src/gather/rules/globs.js";
import { loadRules } from "../../src/gather/rules/index.js";
import { runHook } from "../../src/hook/run.js";
import { tempDir } from "../api/_helpers.js";

// Review rev79h F4 (medium): parts of a glob rule never matched and nothing
// said so: brace alternatives past 64 (`**/*.{e0,…,e69}`: `src/b.e69` got
// nothing), a glob with more than two `**` (`**/packages/**/test/**/*.ts`, an
// ordinary glob), a glob over 512 characters, globs past the 64th of a rule
// (3,000 short ones). Each is now a `rule-glob-refused` warning at the rule
// file, where the file is read (`toRule`): a render and the hook's loading
// list it. The matching itself is unchanged: three `**` are not linear in
// `ignore` (49 ms a pattern on a 63-folder path, 64 patterns a rule).

function setup(rules: Record<string, string>) {
  const base = tempDir();
  const cwd = join(base, "p");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  const agentDir = join(base, "home", ".pi", "agent");
  mkdirSync(join(agentDir, "rules"), { recursive: true });
  for (const [name, globs] of Object.entries(rules)) {
    writeFileSync(join(agentDir, "rules", name), `---\nglobs: ${globs}\n---\nMINE: ${name}\n`);
  }
  return { cwd, agentDir, home: join(base, "home") };
}

const refused = (diagnostics: readonly { code: string; message: string; path?: string }[]) =>
  diagnostics.filter((d) => d.code === "rule-glob-refused");

describe("hostile repository: the globs of a rule that match nothing are said", () => {
  it("70 brace alternatives, three `**`, a 600-character glob, 1,000 globs: each said at its rule", async () => {
    const exts = Array.from({ length: 70 }, (_, i) => `e${i}`).join(",");
    const many = Array.from({ length: 1000 }, (_, i) => `f${i}.x`).join(",");
    const o = setup({
      "ext.md": `"**/*.{${exts}}"`,
      "tests.md": `"**/packages/**/test/**/*.ts"`,
      "long.md": `"src/${"a".repeat(600)}.ts"`,
      "many.md": `[${many}]`,
      "fine.md": `"**/*.ts"`,
    });
    const got = await loadRules(o);
    const said = refused(got.diagnostics);
    const at = (name: string) =>
      said.filter((d) => d.path === join(o.agentDir, "rules", name)).map((d) => d.message);
    expect(at("ext.md")).toEqual([
      '6 globs past the first 64 of this rule (each brace alternative counts one) are not used, from "**/*.e64": split the rule',
    ]);
    expect(at("tests.md")).toEqual([
      expect.stringMatching(
        /^globs with more than 2 \*\* .* match nothing .*: "\*\*\/packages\/\*\*\/test\/\*\*\/\*\.ts"$/,
      ),
    ]);
    expect(at("long.md")).toEqual([
      expect.stringMatching(/^globs over 512 characters match nothing: "src\/aaa/),
    ]);
    expect(at("many.md")).toEqual([
      expect.stringMatching(/^936 globs past the first 64 .* from "f64\.x"/),
    ]);
    expect(at("fine.md")).toEqual([]);
    // The rules still load, and what they keep still matches.
    expect(got.rules.map((r) => r.name).sort()).toEqual(["ext", "fine", "long", "many", "tests"]);
    expect(globMatcher(got.rules.find((r) => r.name === "ext")?.globs ?? [])("src/b.e63")).toBe(
      true,
    );
  });

  it("the hook's note says it: a Read of src/b.e69 under the 70-alternative rule", async () => {
    const exts = Array.from({ length: 70 }, (_, i) => `e${i}`).join(",");
    const o = setup({ "ext.md": `"**/*.{${exts}}"` });
    mkdirSync(join(o.cwd, "src"), { recursive: true });
    writeFileSync(join(o.cwd, "src", "b.e69"), "x\n");
    const input = JSON.stringify({
      session_id: "f4",
      cwd: o.cwd,
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(o.cwd, "src", "b.e69") },
    });
    const env = { XDG_CACHE_HOME: join(o.home, "..", "cache") };
    const out = await runHook("claude-code", input, { home: o.home, env });
    expect(out.note).toContain(
      `${join(o.agentDir, "rules", "ext.md")}: 6 globs past the first 64 of this rule`,
    );
  });
});
