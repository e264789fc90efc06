import { existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSnapshots } from "../../src/author/index.js";
import { makeSandbox, removeSandbox } from "../../src/author/sandbox.js";
import { runHook } from "../../src/hook/run.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A tarball unpacked by Python's `tarfile.extractall()` or `shutil.unpack_archive()`
// (3.11-3.13: no filter, or one that only warns) makes a hard-link member naming
// `../home/.ssh/id_rsa` a second name of your key inside the project: `proj/notes.md`
// and `~/.ssh/id_rsa` are one file. The door checked a file's path, real path, owner
// and the links on its way, never its link count, so the key went into the prompt
// through an `@import` (trusted and `--untrusted`), a rule file (`.clinerules/style.md`),
// a nested `AGENTS.md` given on touch (the codex hook), and into a golden `snapshot
// --update` wrote into the repository (review rev96a F1). A repository's file with more
// than one name is now refused by the door, in both modes, with a warning naming it and
// how to make it a file of its own; the snapshot and simulate copies leave it out.
// The tarball's shape is built here with `link(2)`, as its unpacker makes it.

const SECRET = "SSHSECRET-MARKER-RSA";

function put(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

function hardLink(root: string, path: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  linkSync(join(root, "home/.ssh/id_rsa"), join(root, path));
}

/** The unpacked tarball `project` (a git root) beside your home, its files hard links to your key. */
function unpacked(): { root: string; project: string; names: number } {
  const root = tempDir();
  put(root, "home/.ssh/id_rsa", `${SECRET}\n`);
  put(root, "project/.git/HEAD", "ref: refs/heads/main\n");
  put(root, "project/AGENTS.md", "# Project\n\nSee the style notes:\n@notes.md\n");
  put(root, "project/sub/f.txt", "x\n");
  put(root, "project/snapshots/a.scenario.yaml", "cwd: fx\n");
  put(root, "project/snapshots/fx/AGENTS.md", "# fixture\n@notes.md\n");
  const links = ["notes.md", ".clinerules/style.md", "sub/AGENTS.md", "snapshots/fx/notes.md"];
  for (const path of links) hardLink(root, `project/${path}`);
  return { root, project: join(root, "project"), names: links.length + 1 };
}

const words = (names: number, name: string) =>
  `it has ${names} names (hard links to one file), and its other names may lie anywhere, your home folder too, so it may be any file of yours; git never makes one in a work tree; to keep it, make it a file of its own in its folder: cp ${name} ${name}.tmp && mv ${name}.tmp ${name}`;

describe("hostile-hard-link-home-file: a project file that is a hard link to your ~/.ssh/id_rsa", () => {
  for (const projectTrusted of [true, false]) {
    it(`is refused as an @import and as a rule file, with a warning naming it (${projectTrusted ? "trusted" : "untrusted"})`, async () => {
      const { root, project, names } = unpacked();
      const result = await renderSystemPrompt(pinned(root, { cwd: project, projectTrusted }));
      expect(result.text).not.toContain(SECRET);
      const mine = result.diagnostics.filter((d) => d.message.includes("hard links"));
      expect(mine).toEqual([
        {
          level: "warning",
          code: "import-outside",
          message: `@notes.md: not imported: ${words(names, "notes.md")}; left as written`,
          path: join(project, "AGENTS.md"),
          line: 4,
          column: 1,
        },
        {
          level: "warning",
          code: "rule-refused",
          message: `rule file not read: ${words(names, "style.md")}`,
          path: join(project, ".clinerules/style.md"),
        },
      ]);
      // The project's other text is still read.
      expect(result.text).toContain("See the style notes:");
    });
  }

  it("is not listed in the workspace tree's context files for the model to read", async () => {
    const { root, project, names } = unpacked();
    put(root, "project/docs/AGENTS.md", "Docs rules.\n");
    const result = await renderSystemPrompt(
      pinned(root, { cwd: project, workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" }),
    );
    const listed = result.sections.find((x) => x.name === "dir_context")?.text ?? "";
    expect(listed).toContain("docs/AGENTS.md");
    expect(listed).not.toContain("sub/AGENTS.md");
    expect(result.diagnostics).toContainEqual({
      level: "warning",
      code: "agents-md-link-refused",
      message: `a context file below the working directory is a link that sysprompt does not follow, so the prompt does not list it for the model to read: sub/AGENTS.md (the first: ${words(names, "AGENTS.md")})`,
      path: join(project, "sub/AGENTS.md"),
    });
  });

  it("is not given on touch as a nested AGENTS.md (the codex hook)", async () => {
    const { root, project, names } = unpacked();
    mkdirSync(join(root, "agent"));
    const input = JSON.stringify({
      session_id: "s-hard-link",
      cwd: project,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "cat sub/f.txt" },
    });
    const env = { XDG_CACHE_HOME: join(root, "cache"), SYSPROMPT_AGENT_DIR: join(root, "agent") };
    const out = await runHook("codex", input, { env, home: join(root, "home") });
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(out.note).toContain(
      `${join(project, "sub/AGENTS.md")}: not read: ${words(names, "AGENTS.md")}`,
    );
  });

  it("is not copied into a scenario's sandbox, so snapshot --update writes no golden holding it", async () => {
    const { root, project, names } = unpacked();
    const report = await runSnapshots(join(project, "snapshots"), {
      update: true,
      sandboxDir: join(root, "sandboxes"),
    });
    const golden = join(project, "snapshots/a.md");
    expect(existsSync(golden) ? readFileSync(golden, "utf8") : "").not.toContain(SECRET);
    expect(JSON.stringify(report)).toContain(`not copied: ${words(names, "notes.md")}`);
  });

  it("is left out of explain --simulate's copy of the project, named among the entries skipped", async () => {
    const { root, project, names } = unpacked();
    const made = await makeSandbox(project, join(root, "sandboxes"), new Set(), {
      skipSpecial: true,
    });
    try {
      expect(made.problems).toEqual([]);
      expect(made.skipped).toContainEqual({
        path: join(project, "notes.md"),
        reason: `not copied: ${words(names, "notes.md")}`,
      });
      const copy = made.sandbox?.copy ?? "";
      expect(existsSync(join(copy, "AGENTS.md"))).toBe(true);
      expect(existsSync(join(copy, "notes.md"))).toBe(false);
    } finally {
      if (made.sandbox) await removeSandbox(made.sandbox);
    }
  });

  it("a golden that is a hard link to your key is not read, so no diff prints it", async () => {
    const { root, project, names } = unpacked();
    put(root, "project/snapshots/b.scenario.yaml", "cwd: fy\n");
    put(root, "project/snapshots/fy/AGENTS.md", "# fixture\n");
    hardLink(root, "project/snapshots/b.md");
    const report = await runSnapshots(join(project, "snapshots"), {
      sandboxDir: join(root, "sandboxes"),
    });
    expect(JSON.stringify(report)).not.toContain(SECRET);
    expect(JSON.stringify(report)).toContain(words(names + 1, "b.md"));
  });

  it("a file you name with more than one name is still read; your agent dir's is refused (review rev108b F4)", async () => {
    const { root, project } = unpacked();
    put(root, "home/notes/rules.md", "MY-OWN-RULE: answer briefly.\n");
    mkdirSync(join(root, "agent"));
    linkSync(join(root, "home/notes/rules.md"), join(root, "agent/AGENTS.md"));
    linkSync(join(root, "home/notes/rules.md"), join(root, "home/notes/more.md"));
    const result = await renderSystemPrompt(
      pinned(root, { cwd: project, appendSystemPrompt: "~/notes/more.md" }),
    );
    expect(result.text.match(/MY-OWN-RULE/g)).toHaveLength(1);
    expect(result.text).not.toContain(SECRET);
    expect(result.diagnostics.map((d) => d.path)).toContain(join(root, "agent/AGENTS.md"));
  });
});
