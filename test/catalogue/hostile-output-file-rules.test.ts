import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev50d: what sysprompt writes. F1: a write over a file you made private left it 0644 (the
// temporary file's 0666 less the umask), and the default export file was 0644 in 0755 folders.
// F2: one default export file per agent served every project, its line went into
// ~/.codex/config.toml, so one export in a cloned repository made its rules every codex
// session's. F5: `render -o` wrote the agents' settings files `export --out` refuses, and both
// wrote shell, ssh and git files. F6: a failed write was exit 2, the refusal code. F9: `-o -`
// wrote a file named `-`.

const RULE = (name: string) => `---\nalwaysApply: true\n---\n${name}-RULE: only in ${name}.\n`;

function setup() {
  const root = tempDir();
  for (const dir of ["p/.git", "p/.cursor/rules", "b/.git", "b/.cursor/rules", "home", "agent"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "p/.cursor/rules/a.mdc"), RULE("PROJECT-A"));
  writeFileSync(join(root, "b/.cursor/rules/b.mdc"), RULE("CLONED-B"));
  return root;
}

const mode = (path: string) => statSync(path).mode & 0o7777;

describe("hostile-output-file-rules: the files render -o and export write (rev50d)", () => {
  it("F1: a write keeps the replaced file's read and write bits, never its execute bits", async () => {
    const root = setup();
    const mine = join(root, "home/private.md");
    writeFileSync(mine, "old\n");
    chmodSync(mine, 0o600);
    // (A name that is no Markdown or text file's, `run.sh`, is refused since rev69b F1.)
    const hook = join(root, "p/run.txt");
    writeFileSync(hook, "#!/bin/sh\n");
    chmodSync(hook, 0o750);
    for (const [argv, file] of [
      [["render", "-o", mine], mine],
      [["export", "--agent", "codex", "--out", mine], mine],
      [["render", "-o", "run.txt"], hook],
    ] as const) {
      const out = await cli(root, join(root, "p"), [...argv]);
      expect(out.code).toBe(0);
      expect(readFileSync(file, "utf8")).toContain("PROJECT-A-RULE");
      expect(mode(file)).toBe(file === mine ? 0o600 : 0o640);
    }
  });

  it("F1: the default export file is 0600 in 0700 folders; a cache folder others may write in is refused", async () => {
    const root = setup();
    const out = await cli(root, join(root, "p"), ["export", "--agent", "codex"]);
    expect(out.code).toBe(0);
    const file = out.stdout.trim().replace("codex -c model_instructions_file=", "");
    expect(mode(file)).toBe(0o600);
    const cache = join(root, "home/.cache/sysprompt");
    for (let at = join(file, ".."); at !== cache; at = join(at, "..")) expect(mode(at)).toBe(0o700);
    // One an older sysprompt left 0644 is made private again, even when its bytes are the same.
    chmodSync(file, 0o644);
    const again = await cli(root, join(root, "p"), ["export", "--agent", "codex"]);
    expect([again.code, again.stderr.includes("unchanged:"), mode(file)]).toEqual([0, true, 0o600]);
    chmodSync(cache, 0o777);
    const open = await cli(root, join(root, "p"), ["export", "--agent", "codex"]);
    expect([open.code, open.stdout]).toEqual([2, ""]);
    expect(open.stderr).toContain(`${cache}: writable by other users (mode 0777)`);
  });

  it("F2: each project has its own default export file; a cloned repository's export leaves another project's alone", async () => {
    const root = setup();
    const a = await cli(root, join(root, "p"), ["export", "--agent", "codex"]);
    const b = await cli(root, join(root, "b"), ["export", "--agent", "codex"]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const fileOf = (line: string) => line.trim().replace("codex -c model_instructions_file=", "");
    expect(a.stdout).toMatch(
      /^codex -c model_instructions_file=\S+\/export\/codex\/p-[0-9a-f]{12}\/instructions\.md\n$/,
    );
    expect(fileOf(a.stdout)).not.toBe(fileOf(b.stdout));
    const textA = readFileSync(fileOf(a.stdout), "utf8");
    expect([textA.includes("PROJECT-A-RULE"), textA.includes("CLONED-B-RULE")]).toEqual([
      true,
      false,
    ]);
    expect(readFileSync(fileOf(b.stdout), "utf8")).toContain("CLONED-B-RULE");
    // The line says it is this project's, and what the user-wide setting would do.
    expect(a.stderr).toContain(
      "add this line to the codex command line, when you start it in this project (the file holds this project's prompt; as model_instructions_file in ~/.codex/config.toml it would be every project's)",
    );
  });

  it.each([
    ["~/.codex/config.toml", "home/.codex/config.toml"],
    [".claude/settings.json", "p/.claude/settings.json"],
    [".env", "p/.env"],
    [".mcp.json", "p/.mcp.json"],
    ["~/.bashrc", "home/.bashrc"],
    ["~/.profile", "home/.profile"],
    [".envrc", "p/.envrc"],
    [".git/config", "p/.git/config"],
    [".git/hooks/pre-commit", "p/.git/hooks/pre-commit"],
    ["~/.ssh/authorized_keys", "home/.ssh/authorized_keys"],
    ["~/.gitconfig", "home/.gitconfig"],
    ["~/.config/fish/config.fish", "home/.config/fish/config.fish"],
    ["~/.aws/config", "home/.aws/config"],
    ["~/.vimrc", "home/.vimrc"],
  ])("F5: render -o and export --out %s are refused, exit 2, the file kept", async (out, file) => {
    const root = setup();
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), "yours\n");
    for (const argv of [
      ["render", "-o", out],
      ["export", "--agent", "codex", "--out", out],
    ]) {
      const run = await cli(root, join(root, "p"), argv);
      expect([run.code, run.stdout]).toEqual([2, ""]);
      expect(run.stderr).toMatch(/not written over/);
      expect(readFileSync(join(root, file), "utf8")).toBe("yours\n");
    }
  });

  it("F6: a write that fails is exit 1 (as render > FILE), not the refusal code", async () => {
    const root = setup();
    // The path fits the system (4,090 bytes); the temporary file's beside it
    // (`.<name>.<pid>.<hex>.tmp`, some 20 bytes longer) does not. (A long name alone no longer
    // fails: its temporary name is made to fit, rev66d F1.)
    let folder = join(root, "p", "out");
    while (folder.length + 101 < 3990) folder = join(folder, "d".repeat(100));
    const name = join(folder, `${"n".repeat(4086 - folder.length)}.md`);
    for (const argv of [
      ["render", "-o", name],
      ["export", "--agent", "codex", "--out", name],
    ]) {
      const run = await cli(root, join(root, "p"), argv);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/cannot write it: ENAMETOOLONG/);
      expect(existsSync(join(root, "p", "out"))).toBe(false);
    }
  });

  it("F9: render -o - is stdout; export --out - is a usage error; no file named -", async () => {
    const root = setup();
    const rendered = await cli(root, join(root, "p"), ["render"]);
    const dash = await cli(root, join(root, "p"), ["render", "-o", "-"]);
    expect([dash.code, dash.stdout]).toEqual([0, rendered.stdout]);
    const exported = await cli(root, join(root, "p"), ["export", "--agent", "codex", "--out", "-"]);
    expect([exported.code, exported.stdout]).toEqual([2, ""]);
    expect(exported.stderr).toMatch(/^sysprompt: --out -: export writes a file for codex to read/);
    expect(readdirSync(join(root, "p")).includes("-")).toBe(false);
  });
});
