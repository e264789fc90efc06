import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/index.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// A nested .gitignore's patterns were rebased to the root by pasting its
// folder's path into a glob: in `app/[locale]` (the everyday Next.js route
// folder) `[locale]` became a one-letter class, `a\b` an escape, `x[!y]z` a
// negated class, `#notes/` turned the line into a comment and `!keep/` into a
// negation, so the files git ignores there were read by an untrusted import
// or link. And `secrets/ ` (a trailing space, which git strips) was judged
// anchored before the strip (review rev50a F4). The folder's name is now
// matched as it is spelt, and trailing spaces go first, as in git.

const FOLDERS = ["app/[locale]", "a\\b", "x[!y]z", "#notes", "!keep", "cfg?", "c*g", "sp ace"];

function repo(files: Record<string, string>) {
  const base = tempDir();
  writeFiles(base, { "home/.pi/agent/.keep": "", ...files });
  execFileSync("git", ["init", "-q", join(base, "p")]);
  const home = join(base, "home");
  return { cwd: join(base, "p"), home, agentDir: join(home, ".pi", "agent"), env: {} };
}

function gitIgnores(cwd: string, paths: readonly string[]): string[] {
  const out = execFileSync(
    "git",
    ["-c", "core.quotePath=false", "check-ignore", "--no-index", "--stdin", "-z"],
    { cwd, input: paths.join("\0"), encoding: "utf8" },
  );
  return out.split("\0").filter((l) => l !== "");
}

describe("hostile repository: a nested .gitignore in a folder whose name is glob syntax", () => {
  it("each folder's own .gitignore keeps its file private, as git has it", async () => {
    const files: Record<string, string> = {};
    for (const [i, folder] of FOLDERS.entries()) {
      files[`p/${folder}/.gitignore`] = "local.yml\n";
      files[`p/${folder}/local.yml`] = `SECRET-${i}\n`;
      files[`p/${folder}/deep/local.yml`] = `SECRET-DEEP-${i}\n`;
    }
    const r = repo(files);
    const paths = FOLDERS.flatMap((f) => [`${f}/local.yml`, `${f}/deep/local.yml`]);
    expect(gitIgnores(r.cwd, paths).sort()).toEqual([...paths].sort());
    const check = privatePaths(r.cwd, {
      signal: NO_DEADLINE,
      hidden: false,
      home: r.home,
      env: {},
    });
    const verdicts = await Promise.all(paths.map(async (p) => (await check(join(r.cwd, p)))?.why));
    expect(verdicts).toEqual(paths.map(() => "ignored by git"));
    // The workspace tree rebases the same way: it lists none of them.
    const tree = await buildWorkspaceTree(r.cwd, { mtime: "2026-01-01T00:00:00Z" });
    expect(tree.rendered).toContain("deep/");
    expect(tree.rendered).not.toContain("local.yml");
  });

  it("a negation in such a folder takes back its own name only", async () => {
    const r = repo({
      "p/app/[locale]/.gitignore": "*.json\n!public.json\n",
      "p/app/[locale]/public.json": "{}\n",
      "p/app/[locale]/secrets.json": '{"key":"SECRET"}\n',
    });
    const paths = ["app/[locale]/public.json", "app/[locale]/secrets.json"];
    expect(gitIgnores(r.cwd, paths)).toEqual(["app/[locale]/secrets.json"]);
    const check = privatePaths(r.cwd, {
      signal: NO_DEADLINE,
      hidden: false,
      home: r.home,
      env: {},
    });
    const verdicts = await Promise.all(paths.map(async (p) => (await check(join(r.cwd, p)))?.why));
    expect(verdicts).toEqual([undefined, "ignored by git"]);
  });

  it("an untrusted import of app/[locale]/secrets.json is refused", async () => {
    const r = repo({
      "p/app/[locale]/.gitignore": "secrets.json\n",
      "p/app/[locale]/secrets.json": '{"key":"SECRET-BRACKET-MARKER"}\n',
      "p/AGENTS.md": "# P\n@app/[locale]/secrets.json\n",
    });
    const out = await renderSystemPrompt({ ...r, projectTrusted: false });
    expect(out.text).not.toContain("SECRET-BRACKET-MARKER");
    expect(out.diagnostics.filter((d) => d.code === "import-private").length).toBe(1);
  });

  it("`secrets/ ` with a trailing space matches at any depth below its folder, as git strips the space", async () => {
    const r = repo({
      "p/sub/.gitignore": "secrets/ \n",
      "p/sub/a/secrets/key.txt": "SECRET-SPACE-MARKER\n",
      "p/AGENTS.md": "# P\n@sub/a/secrets/key.txt\n",
    });
    expect(gitIgnores(r.cwd, ["sub/a/secrets/key.txt"])).toEqual(["sub/a/secrets/key.txt"]);
    const out = await renderSystemPrompt({ ...r, projectTrusted: false });
    expect(out.text).not.toContain("SECRET-SPACE-MARKER");
    expect(out.diagnostics.filter((d) => d.code === "import-private").length).toBe(1);
  });
});

// git matches ignore patterns byte by byte: `?` takes one byte of `é` (two
// bytes in UTF-8), a class one byte. The door matched UTF-16 units, so
// `config/cl??.yml` and `key-[\xc3][\xa9].pem` let in files git ignores
// (review rev50a F3). Patterns and paths now meet the matcher as bytes.
describe("hostile repository: ignore patterns that match a name's bytes", () => {
  it("`?` per byte and a byte class keep config/clé.yml and config/key-é.pem private", async () => {
    const r = repo({
      "p/config/clé.yml": "token: SECRET-BYTE-MARKER\n",
      "p/config/key-é.pem": "SECRET-CLASS-MARKER\n",
      "p/config/cle.yml": "Plain notes.\n",
      "p/AGENTS.md": "# P\n@config/clé.yml\n@config/key-é.pem\n@config/cle.yml\n",
    });
    writeFileSync(
      join(r.cwd, ".gitignore"),
      Buffer.from("config/cl??.yml\nconfig/key-[\xc3][\xa9].pem\n", "latin1"),
    );
    const paths = ["config/clé.yml", "config/key-é.pem", "config/cle.yml"];
    expect(gitIgnores(r.cwd, paths)).toEqual(["config/clé.yml", "config/key-é.pem"]);
    const out = await renderSystemPrompt({ ...r, projectTrusted: false });
    expect(out.text).not.toContain("SECRET-BYTE-MARKER");
    expect(out.text).not.toContain("SECRET-CLASS-MARKER");
    expect(out.text).toContain("Plain notes.");
  });
});
