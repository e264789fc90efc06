import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// oc66: the opencode line, checked by running opencode 1.18.33 (integrations/agents-e2e,
// `opencodeFileLineChecks` in run.mjs), where rev64d F5 had read its source only.
// F1: a `{` alone is read as it is (`{file:…/kit{x/p.md}` sent p.md): only `{env:` starts a
// variable, so a `{` needs no `./` spelling, and a `{` inside the project is no refusal.
// F2: opencode reads a `\` in its working folder's path as `/`: run in `kit\x`, it worked in
// `kit/x` (the archive's `kit/x/AGENTS.md` sent, `kit\x/opencode.json` never read), so the
// `./p.md` line export printed there could not reach it.

function setup(project: string) {
  const root = tempDir();
  for (const dir of [`${project}/.git`, "home", "agent"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "kit"), "ATTACKER PROMPT\n");
  return { root, project: join(root, project) };
}

const line = (path: string) => `"agent": { "build": { "prompt": "{file:${path}}" } }\n`;

describe("hostile-export-opencode-file-run: the {file:} line as opencode 1.18.33 reads it", () => {
  it("F1: in a project folder kit{x, the absolute path is written as it is", async () => {
    const { root, project } = setup("kit{x");
    const result = await cli(root, project, ["export", "--agent", "opencode", "--out", "p.md"]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({
      code: 0,
      stdout: line(join(project, "p.md")),
    });
    expect(result.stderr).not.toContain("from the project's top");
  });

  it("F1: a { inside the project is written from its top, not refused", async () => {
    const { root, project } = setup("kit}x");
    mkdirSync(join(project, "a{b"));
    const result = await cli(root, project, ["export", "--agent", "opencode", "--out", "a{b/p.md"]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({
      code: 0,
      stdout: line("./a{b/p.md"),
    });
    expect(existsSync(join(project, "a{b/p.md"))).toBe(true);
  });

  it("F1: a {env: inside the project is still refused", async () => {
    const { root, project } = setup("kit}x");
    mkdirSync(join(project, "a{env:HOME"), { recursive: true });
    const out = "a{env:HOME/p.md";
    const result = await cli(root, project, ["export", "--agent", "opencode", "--out", out]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: "" });
    expect(result.stderr).toContain("{env:");
    expect(existsSync(join(project, out))).toBe(false);
  });

  it.each([
    ["--out p.md", ["--out", "p.md"]],
    ["the cache", []],
  ])(
    "F2: in a project folder kit\\x (%s), refused: opencode works in kit/x there",
    async (_, args) => {
      const { root, project } = setup("kit\\x");
      const result = await cli(root, project, ["export", "--agent", "opencode", ...args]);
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: "" });
      expect(result.stderr).toContain("reads the \\ in that path as a /");
      expect(result.stderr).toContain(JSON.stringify(join(root, "kit/x")));
      expect(existsSync(join(project, "p.md"))).toBe(false);
      expect(existsSync(join(root, "home/.cache"))).toBe(false);
    },
  );

  it.each([
    ["--out p.md", ["--out", "p.md"]],
    ["the cache", []],
  ])(
    "rev67a F4: run from a subfolder kit\\x of a project whose top has none (%s), refused too",
    async (_, args) => {
      // opencode started in `kit\x` works in the look-alike `kit/x` and loads its AGENTS.md.
      const { root, project } = setup("proj");
      const sub = join(project, "kit\\x");
      mkdirSync(sub);
      mkdirSync(join(project, "kit/x"), { recursive: true });
      const result = await cli(root, sub, ["export", "--agent", "opencode", ...args]);
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: "" });
      expect(result.stderr).toContain(
        `does not work in ${JSON.stringify(sub)}: it reads the \\ in that path as a / (it works in ${JSON.stringify(join(project, "kit/x"))} instead`,
      );
      expect(existsSync(join(sub, "p.md"))).toBe(false);
      expect(existsSync(join(root, "home/.cache"))).toBe(false);
    },
  );

  it("F2: the other agents' lines name a path with a \\ (only opencode reads it as /)", async () => {
    const { root, project } = setup("kit\\x");
    const result = await cli(root, project, ["export", "--agent", "codex", "--out", "p.md"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`codex -c model_instructions_file='${join(project, "p.md")}'\n`);
  });
});
