import { mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHook } from "../../src/hook/run.js";
import { sessionLocation } from "../../src/hook/state.js";
import { tempDir } from "../api/_helpers.js";

/** The inode of the session's file: every write of the full path replaces it (the quick path never writes). */
function inodeOf(path: string): bigint {
  try {
    return statSync(path, { bigint: true }).ino;
  } catch {
    return -1n;
  }
}

/** A git project: `files` relative to it. */
function project(files: Record<string, string>) {
  const root = tempDir();
  const cwd = join(root, "project");
  for (const [path, text] of Object.entries({ ".git/HEAD": "ref: refs/heads/main\n", ...files })) {
    mkdirSync(join(cwd, path, ".."), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  mkdirSync(join(root, "home"));
  const where = { env: { XDG_CACHE_HOME: join(root, "cache") }, home: join(root, "home") };
  /** A Read of `path` in session s: what it added (undefined: nothing), and whether the full path ran (it wrote the session's file). */
  const state = sessionLocation("gemini-cli", "s", where).path;
  const read = async (path: string) => {
    const before = inodeOf(state);
    const text = JSON.stringify({
      session_id: "s",
      cwd,
      hook_event_name: "AfterTool",
      tool_name: "read_file",
      tool_input: { file_path: join(cwd, path) },
    });
    const { reply } = await runHook("gemini-cli", text, where);
    const added =
      reply === "{}\n"
        ? undefined
        : (JSON.parse(reply) as { hookSpecificOutput: { additionalContext: string } })
            .hookSpecificOutput.additionalContext;
    return { added, full: inodeOf(state) !== before };
  };
  return { cwd, read };
}

const PY_RULE = '---\nglobs: ["**/*.py"]\n---\nPython: typed.\n';

describe("the hook's quick answer", { timeout: 30_000 }, () => {
  it("says 'nothing new' without the full path once a folder is known empty and no rule can match", async () => {
    const { read } = project({
      "src/a.ts": "",
      "src/b.ts": "",
      "src/lib/c.ts": "",
      ".cursor/rules/py.mdc": PY_RULE,
    });
    expect(await read("src/a.ts")).toEqual({ added: undefined, full: true });
    // src is stamped empty; the Python rule cannot match a .ts file.
    expect(await read("src/b.ts")).toEqual({ added: undefined, full: false });
    expect(await read("src/a.ts")).toEqual({ added: undefined, full: false });
    // A folder not yet seen: looked at once.
    expect(await read("src/lib/c.ts")).toEqual({ added: undefined, full: true });
    expect(await read("src/lib/c.ts")).toEqual({ added: undefined, full: false });
  });

  it("never stamps empty a folder with rules of its own: its glob rule comes with the first path it matches", async () => {
    const { read } = project({
      "pkg/a.ts": "",
      "pkg/b.py": "",
      "pkg/.windsurf/rules/py.md": '---\ntrigger: glob\nglobs: "*.py"\n---\nPkg Python: typed.\n',
    });
    expect(await read("pkg/a.ts")).toEqual({ added: undefined, full: true });
    const py = await read("pkg/b.py");
    expect(py.added).toContain("Pkg Python: typed.");
    expect(await read("pkg/b.py")).toMatchObject({ added: undefined });
  });

  it("sees a context file added to a folder it knew empty, and gives it", async () => {
    const { cwd, read } = project({ "src/a.ts": "", "src/b.ts": "" });
    await read("src/a.ts");
    expect(await read("src/b.ts")).toEqual({ added: undefined, full: false });
    writeFileSync(join(cwd, "src", "AGENTS.md"), "Src rules.\n");
    // Even with the folder's times put back, its stamp (inode count, size, ctime) has changed.
    utimesSync(join(cwd, "src"), 1000, 1000);
    const after = await read("src/b.ts");
    expect(after.full).toBe(true);
    expect(after.added).toContain("Src rules.");
    expect(await read("src/a.ts")).toEqual({ added: undefined, full: false });
  });

  it("looks again for a file a rule that is not given yet may match, once per file", async () => {
    const { read } = project({ "src/a.py": "", "src/b.ts": "", "src/c.ts": "", "src/d.py": "" });
    await read("src/b.ts");
    expect(await read("src/c.ts")).toEqual({ added: undefined, full: false });
    const { read: read2 } = project({
      "src/a.ts": "",
      "src/b.py": "",
      ".cursor/rules/py.mdc": PY_RULE,
    });
    await read2("src/a.ts");
    const py = await read2("src/b.py");
    expect(py.full).toBe(true);
    expect(py.added).toContain("Python: typed.");
    // Given now: the rule no longer sends any call to the full path.
    expect(await read2("src/b.py")).toEqual({ added: undefined, full: false });
    expect(await read2("src/a.ts")).toEqual({ added: undefined, full: false });
  });

  it("leaves to the full path a file that does not exist yet, and one outside the project is nothing", async () => {
    const { cwd, read } = project({ "src/a.ts": "" });
    await read("src/a.ts");
    expect(await read("src/new.ts")).toEqual({ added: undefined, full: true });
    expect((await read("../../outside.ts")).added).toBeUndefined();
    rmSync(join(cwd, "src", "a.ts"));
    expect(await read("src/a.ts")).toEqual({ added: undefined, full: true });
  });

  it("sees the project root change (its .git removed) through the root's stamp", async () => {
    const { cwd, read } = project({ "src/a.ts": "", "src/b.ts": "" });
    await read("src/a.ts");
    expect((await read("src/b.ts")).full).toBe(false);
    rmSync(join(cwd, ".git"), { recursive: true });
    expect((await read("src/b.ts")).full).toBe(true);
  });
});
