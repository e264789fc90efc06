import { Buffer } from "node:buffer";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { compileHgIgnore } from "../../src/repo-files/hgignore.js";
import { tempDir } from "../api/_helpers.js";

// rev68a F3: in an untrusted Mercurial working copy (`.hg/` marks its top), the
// files its `.hgignore` names are your local files, as git's ignored files are;
// only git's ignore rules were read, so `@secrets.yml` put your password in the
// prompt and the workspace tree listed the file. Mercurial need not be
// installed: the door never runs hg, so `.hg/` and `.hgignore` are made by hand.

function hgProject(hgignore: string, files: Record<string, string>) {
  const base = tempDir();
  const project = join(base, "project");
  mkdirSync(join(project, ".hg"), { recursive: true });
  writeFileSync(join(project, ".hg", "requires"), "store\n");
  writeFileSync(join(project, ".hgignore"), hgignore);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(project, path, ".."), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  mkdirSync(join(base, "home", ".pi", "agent"), { recursive: true });
  return { base, project };
}

const render = (base: string, project: string, trusted = false) =>
  renderSystemPrompt({
    cwd: project,
    home: join(base, "home"),
    agentDir: join(base, "home", ".pi", "agent"),
    env: {},
    projectTrusted: trusted,
    workspaceTree: true,
    treeMtime: "2026-01-10T09:00:00Z",
  });

const privateWhy = (r: Awaited<ReturnType<typeof render>>) =>
  r.diagnostics.filter((d) => d.code.endsWith("-private")).map((d) => d.message);

describe("hostile repository: a Mercurial working copy's .hgignore keeps your files private", () => {
  it("syntax: glob names secrets.yml: the import is refused and the tree does not list it", async () => {
    const { base, project } = hgProject("syntax: glob\nsecrets.yml\n", {
      "AGENTS.md": "Local settings: @secrets.yml\n",
      "secrets.yml": "db_password: SECRET-HG-MARKER\n",
    });
    const result = await render(base, project);
    expect(result.text).not.toContain("SECRET-HG-MARKER");
    expect(result.text).not.toMatch(/secrets\.yml\s+\d+B/);
    expect(privateWhy(result)).toEqual([
      expect.stringContaining("ignored by Mercurial (.hgignore)"),
    ]);
  });

  it("the default regexp syntax, a folder pattern and a link to the ignored file", async () => {
    const { base, project } = hgProject("# local\n^local/\n\\.env\\.[a-z]+$\n", {
      "AGENTS.md": "@local/keys.md\n@cfg.md\n",
      "local/keys.md": "KEY-HG-MARKER\n",
      ".env.prod": "ENV-HG-MARKER\n",
      "docs/AGENTS.md": "Docs.\n",
    });
    symlinkSync(".env.prod", join(project, "cfg.md"));
    const result = await render(base, project);
    expect(result.text).not.toContain("KEY-HG-MARKER");
    expect(result.text).not.toContain("ENV-HG-MARKER");
    expect(privateWhy(result)).toHaveLength(2);
    expect(privateWhy(result)[0]).toContain("ignored by Mercurial (.hgignore)");
  });

  it("a line it cannot read (a back-reference) refuses what it might hide, naming the line", async () => {
    const { base, project } = hgProject("syntax: regexp\n(a)\\1\n", {
      "AGENTS.md": "@notes.md\n",
      "notes.md": "NOTES-HG-MARKER\n",
    });
    const result = await render(base, project);
    expect(result.text).not.toContain("NOTES-HG-MARKER");
    expect(privateWhy(result)[0]).toContain(".hgignore line 2");
    // Trusted, the working copy's files are read as before.
    expect((await render(base, project, true)).text).toContain("NOTES-HG-MARKER");
  });

  it("a file .hgignore does not name is read; trusted, the ignored one too", async () => {
    const { base, project } = hgProject("syntax: glob\n*.local\n", {
      "AGENTS.md": "@notes.md\n",
      "notes.md": "NOTES-HG-MARKER\n",
    });
    expect((await render(base, project)).text).toContain("NOTES-HG-MARKER");
  });

  // rev70b F1: `{m,n}` was read from a 24-character window only; a longer count Python takes
  // (leading zeros) fell back to a literal `{`, and the file Mercurial ignores was read.
  it("a repeat count longer than 24 characters is read as Python reads it", async () => {
    for (const line of [
      "^secre{0000000000000000000000001}t\\.yml$",
      "^secret{0,00000000000000000000001}\\.yml$",
    ]) {
      const { base, project } = hgProject(`${line}\n`, {
        "AGENTS.md": "See @secret.yml\n",
        "secret.yml": "db_password: HG-IGNORED-SECRET-MARKER\n",
      });
      const result = await render(base, project);
      expect(result.text).not.toContain("HG-IGNORED-SECRET-MARKER");
      expect(privateWhy(result)).toEqual([
        expect.stringContaining("ignored by Mercurial (.hgignore)"),
      ]);
    }
  });

  // rev70b F2: Python's `bytes.strip()` keeps 0xA0, so Mercurial rejects `syntax: glob\xa0` and keeps
  // regexp; JavaScript's trim() dropped it and read the next line as a glob.
  it("syntax: glob followed by byte 0xA0 is no syntax: the regexp in force stays", async () => {
    const { base, project } = hgProject("", {
      "AGENTS.md": "See @secret.yml\n",
      "secret.yml": "db_password: HG-NBSP-SECRET-MARKER\n",
    });
    writeFileSync(
      join(project, ".hgignore"),
      Buffer.from("syntax: glob\xa0\n^sec.et\\.yml$\n", "latin1"),
    );
    const result = await render(base, project);
    expect(result.text).not.toContain("HG-NBSP-SECRET-MARKER");
    expect(privateWhy(result)).toEqual([
      expect.stringContaining("ignored by Mercurial (.hgignore)"),
    ]);
  });

  // rev70b F3: each line's program was bounded, their sum not: 26,214 lines of `a{0,3332}` (256 KiB)
  // killed the process (V8's fatal "invalid size error"). Past 200,000 instructions the rest is a cut.
  it("lines whose programs together pass the file's bound are a cut: what they might hide is refused", async () => {
    const { base, project } = hgProject(`${"^x{3000}\n".repeat(40)}^local\\.yml$\n`, {
      "AGENTS.md": "PROJECT-RULES-MARKER @notes.md @local.yml\n",
      "notes.md": "NOTES-HG-MARKER\n",
      "local.yml": "LOCAL-HG-MARKER\n",
    });
    const result = await render(base, project);
    expect(result.text).toContain("PROJECT-RULES-MARKER");
    expect(result.text).not.toContain("NOTES-HG-MARKER");
    expect(result.text).not.toContain("LOCAL-HG-MARKER");
    expect(privateWhy(result).join("\n")).toContain("past what this reader takes");
    // The whole 256 KiB file stops at the bound: read in a moment, no fatal error.
    const started = performance.now();
    const rules = compileHgIgnore("a{0,3332}\n".repeat(26_214));
    expect(rules.cut).toContain("past what this reader takes");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  // rev70b F7: 20,000 nested groups overflowed the parser's recursion; the step failed and every
  // context file of the project was lost. Past 100 levels the line is a cut.
  it("deeply nested groups are a cut, not a failed step", async () => {
    const n = 20_000;
    const { base, project } = hgProject(`^${"(".repeat(n)}x${")".repeat(n)}\n`, {
      "AGENTS.md": "PROJECT-RULES-MARKER @notes.md\n",
      "notes.md": "NOTES-HG-MARKER\n",
    });
    const result = await render(base, project);
    expect(result.diagnostics.filter((d) => d.code === "step-failed")).toEqual([]);
    expect(result.text).toContain("PROJECT-RULES-MARKER");
    expect(result.text).not.toContain("NOTES-HG-MARKER");
    expect(privateWhy(result)[0]).toContain("too deeply nested");
  });
});
