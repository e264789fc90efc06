import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev69b F1: a trusted project's `.pi/SYSTEM.md` is the prompt's first text, so `render -o`
// into a file a shell, Perl, Ruby or make loads wrote the project's code for it to run: bash ran
// `source .venv/bin/activate`'s first line, `perl Makefile.PL` a `system(…); __END__`, make an
// included `rules.mk`'s `$(shell …)`. The deny list missed them (`Gemfile` was refused, `.rvmrc`
// was not). The prompt is Markdown: it is written only to a name ending .md, .markdown,
// .txt, .prompt, Cursor's .mdc or an agent's rule file by name (.cursorrules …; not .mdx, rev70b F4)
// (a JSON render to a .json too), and the deny list still holds for those.

function project() {
  const root = tempDir();
  for (const dir of ["p/.git", "p/.pi", "home", "agent"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "p/.pi/SYSTEM.md"), 'system("touch /tmp/pwned");\n__END__\n');
  writeFileSync(join(root, "p/AGENTS.md"), "# P\n");
  return root;
}

describe("hostile-output-script-names: a prompt is written only to a Markdown or text name", () => {
  it.each([
    ".venv/bin/activate",
    ".rvmrc",
    ".autoenv.zsh",
    ".perldb",
    "cpanfile",
    "Makefile.PL",
    "Build.PL",
    "Vagrantfile",
    "Brewfile",
    ".irbrc",
    "config.ru",
    "rules.mk",
    "run.sh",
    "prompt",
    "prompt.md.sh",
    // rev70b F4: an MDX site runs a .mdx file's import/export lines when it builds.
    "docs/agent.mdx",
  ])("render -o %s is refused (exit 2) and nothing is written", async (name) => {
    const root = project();
    const out = await cli(root, join(root, "p"), ["render", "-o", name]);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain(
      `sysprompt: --output: ${join(root, "p", name)}: render writes Markdown: name a file ending .md or .txt (or .markdown, .mdc, .prompt, or an agent's rule file such as .cursorrules), or write to standard output;`,
    );
    expect(existsSync(join(root, "p", name))).toBe(false);
  });

  it.each([
    "CMakeLists.txt",
    "requirements.txt",
    "requirements-dev.txt",
    "dev-requirements.txt",
    "constraints.txt",
    "requirements/base.txt",
    "maskfile.md",
  ])("render -o %s, a text name a tool runs or fetches from, is refused", async (name) => {
    const root = project();
    const out = await cli(root, join(root, "p"), ["render", "-o", name]);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain("which another program runs or trusts line by line");
    expect(existsSync(join(root, "p", name))).toBe(false);
  });

  it("export --out into a script name is refused before it renders", async () => {
    const root = project();
    const out = await cli(root, join(root, "p"), [
      "export",
      "--agent",
      "codex",
      "--out",
      "Makefile.PL",
    ]);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain(
      "export writes Markdown: name a file ending .md or .txt (or .markdown, .mdc, .prompt, or an agent's rule file such as .cursorrules), or leave out --out for the default export file;",
    );
    expect(existsSync(join(root, "p/Makefile.PL"))).toBe(false);
  });

  it.each([
    "prompt.md",
    "PROMPT.MD",
    "notes.markdown",
    "system.txt",
    ".cursorrules",
    ".windsurfrules",
    "x.prompt",
    "r.mdc",
    "prompt.md. ",
  ])("render -o %s is written", async (name) => {
    const root = project();
    const out = await cli(root, join(root, "p"), ["render", "-o", name]);
    expect(out.code, out.stderr).toBe(0);
    expect(readFileSync(join(root, "p", name), "utf8")).toContain("__END__");
  });

  it("a JSON render goes to a .json file, the prompt itself does not", async () => {
    const root = project();
    const json = await cli(root, join(root, "p"), ["render", "--json", "-o", "render.json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(root, "p/render.json"), "utf8")).text).toContain("__END__");
    const format = await cli(root, join(root, "p"), [
      "render",
      "--format",
      "anthropic",
      "-o",
      "request.json",
    ]);
    expect(format.code, format.stderr).toBe(0);
    const text = await cli(root, join(root, "p"), ["render", "-o", "prompt.json"]);
    expect(text.code).toBe(2);
    expect(existsSync(join(root, "p/prompt.json"))).toBe(false);
  });
});
