import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/index.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { gitIgnores, gitRepo } from "./_git-ignores.js";

// Three ignore lines git reads one way and the door read another (review rev71a):
// - F2: a nested `.gitignore` line that is a lone `!` (`! `, `!\r` of a CRLF file, `!\0x`) is
//   an empty pattern to git, which matches nothing; rebased to its folder it was `!app/**/`,
//   which took back every ignored folder below `app/`: `--untrusted` inlined
//   `app/secrets/key.txt`, which the root's `secrets/` ignores, and the tree listed it.
// - F4: git drops one CR before the LF, and keeps any other as part of the name
//   (`!secrets.yml\r\r` is the name `secrets.yml\r`); the door dropped that one, then `ignore`
//   dropped the second, and `!secrets.yml` took back `secrets.yml`.
// - F3: git with core.ignoreCase=true (every macOS or Windows clone) lowercases the name but
//   compares a class's single members as written, so `[!S]ecrets.yml` ignores `Secrets.yml`
//   and `![S]ecrets.yml` takes back nothing; the door's folded reading was a case-insensitive
//   regular expression, which kept `Secrets.yml` both ways.
// The door must ignore what git ignores with either core.ignoreCase, and keep the rest.

/** Files (under `p/`), the paths to ask about, and those git ignores (with either setting). */
const CASES: [Record<string, string>, string[], string[]][] = [
  // F2
  ...["!\n", "! \n", "!\r\n", "!\0x\n", "!\r\r\n", "!/\n"].map(
    (line): [Record<string, string>, string[], string[]] => [
      { ".gitignore": "secrets/\n", "app/.gitignore": line },
      ["app/secrets/key.txt", "app/public.txt"],
      ["app/secrets/key.txt"],
    ],
  ),
  // F4
  ...["\r\r\n", "\r  \n", "\r\0x\n", "\r\r  \n", " \r \n", "\\\r\r\n"].map(
    (end): [Record<string, string>, string[], string[]] => [
      { ".gitignore": `secrets.yml\n!secrets.yml${end}` },
      ["secrets.yml", "public.yml"],
      ["secrets.yml"],
    ],
  ),
  [
    { ".gitignore": "secrets.yml\n", "app/.gitignore": "!secrets.yml\r\r\n" },
    ["app/secrets.yml"],
    ["app/secrets.yml"],
  ],
  // A CR-ended line still takes back the name ending in CR, and a CRLF line its name.
  [
    { ".gitignore": "keep*\ncrlf*\n!keep.yml\r\r\n!crlf.yml\r\n" },
    ["keep.yml\r", "keep.yml", "crlf.yml"],
    ["keep.yml"],
  ],
  // F3
  [
    { ".gitignore": "[!S]ecrets.yml\n" },
    ["Secrets.yml", "secrets.yml", "Public.yml"],
    ["Secrets.yml", "secrets.yml"],
  ],
  [{ ".gitignore": "[^S]ecrets.yml\n" }, ["Secrets.yml"], ["Secrets.yml"]],
  [{ ".gitignore": "config/[!L]ocal.yml\n" }, ["config/Local.yml"], ["config/Local.yml"]],
  [{ ".gitignore": "[!C]onfig/\n" }, ["Config/local.yml"], ["Config/local.yml"]],
  [{ ".gitignore": "secrets.yml\n![S]ecrets.yml\n" }, ["Secrets.yml"], ["Secrets.yml"]],
  [{ ".gitignore": "secrets.yml\n!\\Secrets.yml\n" }, ["Secrets.yml"], ["Secrets.yml"]],
  // A range folds both ways in git too: `![R-T]` takes `Secrets.yml` back in both readings.
  [{ ".gitignore": "secrets.yml\n![R-T]ecrets.yml\n" }, ["Secrets.yml"], []],
  // `[S]` matches no folded name: git keeps `secrets.yml` with either setting.
  [{ ".gitignore": "[S]ecrets.yml\n" }, ["secrets.yml", "Secrets.yml"], ["Secrets.yml"]],
];

async function doorIgnores(cwd: string, home: string, paths: readonly string[]) {
  const check = privatePaths(cwd, { signal: NO_DEADLINE, hidden: false, home, env: {} });
  const door: string[] = [];
  for (const p of paths) if ((await check(join(cwd, p))) !== undefined) door.push(p);
  return door.sort();
}

describe("hostile repository: a lone `!`, a second CR, a class's uppercase member", () => {
  it("the door ignores what git ignores with either core.ignoreCase, and keeps the rest", async () => {
    for (const [files, paths, ignored] of CASES) {
      const all: Record<string, string> = {};
      for (const [path, text] of Object.entries(files)) all[`p/${path}`] = text;
      for (const p of paths) all[`p/${p}`] = "SECRET\n";
      const r = gitRepo(all);
      const label = JSON.stringify(files);
      const git = [...new Set([...gitIgnores(r.cwd, paths), ...gitIgnores(r.cwd, paths, true)])];
      expect(git.sort(), label).toEqual([...ignored].sort());
      expect(await doorIgnores(r.cwd, r.home, paths), label).toEqual([...ignored].sort());
    }
  });

  it("untrusted, none of the three is imported, and the tree leaves them out", async () => {
    const r = gitRepo({
      "p/.gitignore": "secrets/\nlocal.yml\n!local.yml\r\r\n[!S]ecrets.yml\n",
      "p/app/.gitignore": "!\r\n",
      "p/app/secrets/key.txt": "aws_secret=GIT-IGNORED-SECRET-MARKER\n",
      "p/local.yml": "db_password=CRCR-SECRET-MARKER\n",
      "p/Secrets.yml": "db_password=CASEFOLD-SECRET-MARKER\n",
      "p/public.yml": "port: 1\n",
      "p/AGENTS.md": "Project notes.\n@app/secrets/key.txt\n@local.yml\n@Secrets.yml\n",
    });
    const out = await renderSystemPrompt({ ...r, projectTrusted: false });
    expect(out.text).toContain("Project notes.");
    expect(out.text).not.toContain("SECRET-MARKER");
    expect(out.diagnostics.filter((d) => d.code === "import-private").length).toBe(3);
    const tree = await buildWorkspaceTree(r.cwd, { mtime: "2026-01-01T00:00:00Z" });
    expect(tree.rendered).toContain("public.yml");
    expect(tree.rendered).not.toContain("key.txt");
    expect(tree.rendered).not.toContain("local.yml");
    expect(tree.rendered).not.toContain("Secrets.yml");
  });
});
