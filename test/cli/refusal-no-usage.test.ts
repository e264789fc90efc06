import {
  promises as fsp,
  mkdirSync,
  readdirSync,
  renameSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_run.js";

// A file the CLI was told to write that is refused for what is on disk (a
// link at the target, a folder swapped for a link while the file was
// written) is no mistake on the command line: the refusal is said on one
// line and the exit is 2, with no usage line after it (the usage line once
// followed every such refusal, as if a flag had been mistyped). A link at the
// target itself: test/cli/render-output.test.ts.

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a refusal of what is on disk", () => {
  it("render -o through a folder swapped for a link while the file is written: the refusal alone, exit 2", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const out = join(project, "out");
    const elsewhere = join(root, "elsewhere");
    mkdirSync(out, { recursive: true });
    mkdirSync(elsewhere);
    const open = fsp.open.bind(fsp);
    let swaps = 0;
    vi.spyOn(fsp, "open").mockImplementation(async (path, ...rest) => {
      if (!String(path).endsWith(".tmp")) return open(path, ...rest);
      swaps++;
      renameSync(out, `${out}.real`);
      symlinkSync(elsewhere, out);
      try {
        return await open(path, ...rest);
      } finally {
        unlinkSync(out);
        renameSync(`${out}.real`, out);
      }
    });
    const result = await cli(root, ["render", "-o", "out/prompt.md"]);
    expect(swaps).toBe(1);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: --output: ${out}: the folder changed while it was written\n`,
    });
    expect([readdirSync(elsewhere), readdirSync(out)]).toEqual([[], []]);
  });

  it("export --out onto a link: the refusal alone, exit 2", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(project, { recursive: true });
    symlinkSync(join(root, "elsewhere.md"), join(project, "CLAUDE.md"));
    const result = await cli(root, ["export", "--agent", "claude-code", "--out", "CLAUDE.md"]);
    expect([result.code, result.stdout, result.stderr.split("\n").at(-2)]).toEqual([
      2,
      "",
      `sysprompt: export: ${join(project, "CLAUDE.md")}: a symbolic link, not a regular file: it is not written through`,
    ]);
    expect(result.stderr).not.toContain("Usage:");
  });

  it("eject --diff of a copy that is a link: the refusal alone, exit 2", async () => {
    const root = tempDir();
    const sections = join(root, "project", ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    symlinkSync(join(root, "elsewhere.md"), join(sections, "date.md"));
    const agent = join(root, "agent");
    const result = await cli(root, ["eject", "--agent-dir", agent, "--diff", "date"], false);
    expect([result.code, result.stdout, result.stderr.includes("Usage:")]).toEqual([2, "", false]);
    expect(result.stderr).toMatch(/^sysprompt: [^\n]*date\.md[^\n]*link[^\n]*\n$/);
  });
});
