import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearStepCache } from "../../src/gather/deadline.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { createPromptSession, openPromptSession } from "../../src/session/session.js";
import type { SyspromptError } from "../../src/types.js";
import {
  comparable,
  link,
  projectOptions,
  remove,
  sectionText,
  sessionProject,
  TRUST_EVERY_STAT,
  write,
} from "./_project.js";

/**
 * Every file opened and every folder listed, through any module: the spy on
 * reads. Stats are not logged — checking them is what a session does instead.
 */
const io = vi.hoisted(() => ({
  log: [] as string[],
  /** While set, opening a path that ends so waits for `released`: a read that hangs. */
  hold: undefined as { suffix: string; released: Promise<void> } | undefined,
}));

/** `fn`, noting each call's path in the log as `what`. */
const logged = vi.hoisted(
  () =>
    <A extends unknown[], R>(what: string, fn: (path: string, ...rest: A) => R) =>
    (path: string, ...rest: A): R => {
      io.log.push(`${what} ${path}`);
      return fn(path, ...rest);
    },
);

// Gathering opens and lists through src/_io.ts (its calls are synchronous, in slices).
vi.mock("../../src/_io.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/_io.js")>();
  const open = async (path: string, flags: number) => {
    const hold = io.hold;
    if (hold && path.endsWith(hold.suffix)) await hold.released;
    return actual.open(path, flags);
  };
  return {
    ...actual,
    readFile: logged("read", actual.readFile),
    open: logged("read", open),
    readdir: logged("list", actual.readdir as (p: string, ...r: unknown[]) => unknown),
  };
});

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...actual,
    readFile: logged("read", actual.readFile as (p: string, ...r: unknown[]) => unknown),
    open: logged("read", actual.open as (p: string, ...r: unknown[]) => unknown),
    readdir: logged("list", actual.readdir as (p: string, ...r: unknown[]) => unknown),
  };
});

vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs")>();
  return {
    ...actual,
    readdir: (path: string, ...rest: unknown[]) => {
      io.log.push(`list ${path}`);
      return (actual.readdir as (...args: unknown[]) => void)(path, ...rest);
    },
    // The walks list folders synchronously: in one call, or a batch at a time through a handle.
    readdirSync: (path: string, ...rest: unknown[]) => {
      // A folder checked by lstat is listed through its descriptor (/proc/self/fd/N): by the path it names.
      io.log.push(`list ${path.startsWith("/proc/self/fd/") ? actual.readlinkSync(path) : path}`);
      return (actual.readdirSync as (...args: unknown[]) => unknown)(path, ...rest);
    },
    opendirSync: (path: string, ...rest: unknown[]) => {
      io.log.push(`list ${path.startsWith("/proc/self/fd/") ? actual.readlinkSync(path) : path}`);
      return (actual.opendirSync as (...args: unknown[]) => unknown)(path, ...rest);
    },
  };
});

beforeEach(() => {
  io.log.length = 0;
});
afterEach(() => clearStepCache());

/** What the spy saw since the last call, sorted (steps run in parallel), with `root` cut off. */
function reads(root: string): string[] {
  const seen = io.log.splice(0).map((line) => line.replace(root, "<root>"));
  return [...new Set(seen)].sort();
}

function setup(extra = {}) {
  const { root, project } = sessionProject();
  const options = projectOptions(root, extra);
  const session = openPromptSession(options, TRUST_EVERY_STAT);
  return { root, project, options, session };
}

describe("createPromptSession: nothing changed", () => {
  it("the second render opens no file, lists no folder, and gives the same result with no changes", async () => {
    const { root, options, session } = setup({ workspaceTree: true });
    const first = await session.render();
    // The premise: every step of the first render ran in time, so each left a memo.
    const statuses = [...Array(7).fill("ok"), "skipped", "ok"];
    expect(first.result.steps.map((s) => s.status)).toEqual(statuses);
    expect(reads(root)).toContain("read <root>/project/AGENTS.md");
    const second = await session.render();
    expect(reads(root)).toEqual([]);
    expect([first.changes, second.changes]).toEqual([undefined, undefined]);
    expect(second.result.text).toBe(first.result.text);
    expect(comparable(second.result)).toEqual(comparable(await renderSystemPrompt(options)));
    // Every step that runs is ok; git is off (no --git).
    expect(second.result.steps.map((s) => s.status)).toEqual(statuses);
    session.close();
  });

  it("an entry added to a folder the steps only pass through: nothing is opened or listed again", async () => {
    // The folder above the project root stands for the temp folder's own parent (/tmp, where
    // every other process adds entries) and for the user's home; .git gets new entries with
    // every git command. The steps ask whether an entry is there and whether a folder is a
    // link, which such an addition does not change.
    const { root, session } = setup();
    await session.render();
    reads(root);
    write(root, "notes.txt", "not for the agent\n");
    write(root, "project/.git/index", "DIRC");
    const second = await session.render();
    expect(reads(root)).toEqual([]);
    expect(second.changes).toBeUndefined();
    session.close();
  });

  it("with the real settle time, a file written moments ago is read again on the next render", async () => {
    const { root } = sessionProject(); // just written: every ctime is now
    const session = createPromptSession(projectOptions(root));
    const first = await session.render();
    reads(root);
    const second = await session.render();
    expect(reads(root)).toContain("read <root>/project/AGENTS.md");
    expect([second.result.text, second.changes]).toEqual([first.result.text, undefined]);
    session.close();
  });
});

describe("createPromptSession: one edit, exactly the sections it affects", () => {
  it("an edited context file: project_context, and only the context step reads", async () => {
    const { root, options, session } = setup();
    await session.render();
    reads(root);
    write(root, "project/AGENTS.md", "# Project\n\nRun `npm run check` first.\n\n@docs/style.md\n");
    const { result, changes } = await session.render();
    // The rules step runs again too (its always rules are deduped against the
    // context files): it lists the project folder for Roo's mode files, and reads nothing.
    expect(reads(root)).toEqual([
      "list <root>/project",
      "read <root>/project/AGENTS.md",
      "read <root>/project/docs/style.md",
    ]);
    const fresh = await renderSystemPrompt(options);
    expect(changes).toEqual({ project_context: sectionText(fresh, "project_context") });
    expect(comparable(result)).toEqual(comparable(fresh));
    expect(sectionText(result, "project_context")).toContain("npm run check");
    session.close();
  });

  it("an edited import target: project_context", async () => {
    const { root, options, session } = setup();
    await session.render();
    write(root, "project/docs/style.md", "Indent with tabs.\n");
    const { result, changes } = await session.render();
    const fresh = await renderSystemPrompt(options);
    expect(changes).toEqual({ project_context: sectionText(fresh, "project_context") });
    expect(comparable(result)).toEqual(comparable(fresh));
    session.close();
  });

  it("an edited section override: that section", async () => {
    const { root, options, session } = setup();
    await session.render();
    write(root, "project/.pi/sections/rules.md", "{{> base}}\n- Keep commits smaller.\n");
    const { result, changes } = await session.render();
    const fresh = await renderSystemPrompt(options);
    expect(changes).toEqual({ rules: sectionText(fresh, "rules") });
    expect(sectionText(result, "rules")).toContain("- Keep commits smaller.");
    expect(comparable(result)).toEqual(comparable(fresh));
    session.close();
  });

  it("an edited skill: the skills section", async () => {
    const { root, options, session } = setup();
    await session.render();
    write(
      root,
      "project/.pi/skills/pdf/SKILL.md",
      "---\nname: pdf\ndescription: Read tables and forms out of PDF files.\n---\nUse pdftotext.\n",
    );
    const { result, changes } = await session.render();
    const fresh = await renderSystemPrompt(options);
    expect(changes).toEqual({ skills: sectionText(fresh, "skills") });
    expect(comparable(result)).toEqual(comparable(fresh));
    session.close();
  });
});

describe("createPromptSession: files that appear and disappear", () => {
  it("a context file where none was (a negative look-up) is picked up", async () => {
    const { root, options, session } = setup();
    await session.render();
    write(root, "AGENTS.md", "Above the project: be brief.\n");
    const { result, changes } = await session.render();
    const fresh = await renderSystemPrompt(options);
    expect(changes).toEqual({ project_context: sectionText(fresh, "project_context") });
    expect(sectionText(result, "project_context")).toContain("Above the project: be brief.");
    expect(comparable(result)).toEqual(comparable(fresh));
    session.close();
  });

  it("a section file in a folder that did not exist, and a user override: both picked up", async () => {
    const { root, options, session } = setup();
    await session.render();
    write(root, "project/.pi/partials/house.md", "House style.");
    write(root, "project/.pi/sections/house.md", "---\norder: 15\n---\n{{> house}}\n");
    write(root, "agent/sections/docs.md", "Docs live in docs/.\n");
    const { result, changes } = await session.render();
    const fresh = await renderSystemPrompt(options);
    expect(changes).toEqual({
      house: "<house>\nHouse style.\n</house>",
      docs: sectionText(fresh, "docs"),
    });
    expect(comparable(result)).toEqual(comparable(fresh));
    session.close();
  });

  it("an imported link pointed elsewhere: the new target is imported", async () => {
    const { root, options, session } = setup();
    write(root, "project/docs/other.md", "Other style.\n");
    link(root, "project/docs/current.md", "style.md");
    write(root, "project/AGENTS.md", "Style: @docs/current.md\n");
    const before = await session.render();
    link(root, "project/docs/current.md", "other.md");
    const { result, changes } = await session.render();
    const fresh = await renderSystemPrompt(options);
    expect([sectionText(before.result, "project_context"), changes]).toEqual([
      expect.stringContaining("Style: Indent with two spaces."),
      { project_context: expect.stringContaining("Style: Other style.") },
    ]);
    expect(comparable(result)).toEqual(comparable(fresh));
    session.close();
  });

  it("a deleted skill, import target and override disappear", async () => {
    const { root, options, session } = setup();
    const before = await session.render();
    remove(root, "project/.pi/skills/pdf");
    remove(root, "project/docs/style.md");
    remove(root, "project/.pi/sections/rules.md");
    const { result, changes } = await session.render();
    const fresh = await renderSystemPrompt(options);
    expect(changes).toEqual({
      skills: null,
      project_context: sectionText(fresh, "project_context"),
      rules: sectionText(fresh, "rules"),
    });
    expect(sectionText(before.result, "skills")).toContain("pdf");
    expect(result.diagnostics).toContainEqual(expect.objectContaining({ code: "import-missing" }));
    expect(comparable(result)).toEqual(comparable(fresh));
    session.close();
  });
});

describe("createPromptSession: the workspace tree", () => {
  it("a new file, an edited file and a new AGENTS.md below cwd are picked up", async () => {
    const { root, options, session } = setup({ workspaceTree: true });
    await session.render();
    const edits = [
      () => write(root, "project/src/util/strings.ts", "export const up = (s: string) => s;\n"),
      () => write(root, "project/src/index.ts", "export const x = 12345;\n"),
      () => write(root, "project/src/AGENTS.md", "Sources: strict TypeScript.\n"),
      () => remove(root, "project/src/util"),
    ];
    const changed: string[][] = [];
    for (const edit of edits) {
      edit();
      const { result, changes } = await session.render();
      expect(comparable(result)).toEqual(comparable(await renderSystemPrompt(options)));
      changed.push(Object.keys(changes ?? {}).sort());
    }
    expect(changed).toEqual([
      ["workspace_tree"],
      ["workspace_tree"],
      ["dir_context", "workspace_tree"],
      ["workspace_tree"],
    ]);
    session.close();
  });

  it("only the tree step reads when only the tree changed", async () => {
    const { root, session } = setup({ workspaceTree: true });
    await session.render();
    reads(root);
    write(root, "project/src/new.ts", "export {};\n");
    await session.render();
    const seen = reads(root);
    // The tree step reads its ignore files again, and the HEAD of the repository's git folder:
    // whether git would use it (review rev47a F4), and the git config files that may name your
    // excludes file (core.excludesFile: review rev104a F1). No other step reads.
    const again = (r: string) =>
      r.endsWith(".gitignore") ||
      r.endsWith("/.git/HEAD") ||
      r.endsWith("gitconfig") ||
      r.endsWith("/git/config") ||
      r.endsWith("/.git/config");
    expect(seen.filter((r) => r.startsWith("read ") && !again(r))).toEqual([]);
    expect(seen).toContain("list <root>/project/src");
    session.close();
  });
});

describe("createPromptSession: overrides", () => {
  it("per-render options change only what they feed, and read nothing again", async () => {
    const { root, options, session } = setup();
    await session.render({ model: "small-1" });
    reads(root);
    const second = await session.render({ model: "large-2" });
    expect(reads(root)).toEqual([]);
    expect(Object.keys(second.changes ?? {})).toEqual(["environment"]);
    expect(comparable(second.result)).toEqual(
      comparable(await renderSystemPrompt({ ...options, model: "large-2" })),
    );
    // Back to the session's own options: no model.
    const third = await session.render();
    expect(comparable(third.result)).toEqual(comparable(await renderSystemPrompt(options)));
    session.close();
  });

  it("an override that a step depends on runs that step: tools without read or bash drop the skills", async () => {
    const { options, session } = setup();
    await session.render();
    const noFiles = await session.render({ tools: ["edit"] });
    expect(noFiles.result.steps.find((s) => s.name === "skills")?.status).toBe("skipped");
    expect(noFiles.changes?.skills).toBeNull();
    const back = await session.render({ tools: ["read"] });
    expect(comparable(back.result)).toEqual(
      comparable(await renderSystemPrompt({ ...options, tools: ["read"] })),
    );
    const tree = await session.render({ workspaceTree: true });
    expect(comparable(tree.result)).toEqual(
      comparable(await renderSystemPrompt({ ...options, workspaceTree: true })),
    );
    session.close();
  });

  it("an override that changes what a step reads: SYSTEM.md resolved by the host, then not", async () => {
    const { root, options, session } = setup();
    write(root, "project/.pi/SYSTEM.md", "The project's own base prompt.\n");
    const hosted = await session.render({ resolvedSystemPrompt: "The host's base prompt." });
    const own = await session.render();
    expect([sectionText(hosted.result, "system"), own.changes]).toEqual([
      "The host's base prompt.",
      { system: "The project's own base prompt." },
    ]);
    expect(comparable(own.result)).toEqual(comparable(await renderSystemPrompt(options)));
    session.close();
  });

  it("a fixed option cannot be overridden, a bad one is the caller's error, and a closed session renders no more", async () => {
    const { session } = setup();
    const code = (p: Promise<unknown>) =>
      p.then(
        () => "resolved",
        (e: SyspromptError) => `${e.name} ${e.code}: ${e.message.split(";")[0]}`,
      );
    expect(await code(session.render({ cwd: "/" } as never))).toBe(
      'SyspromptError bad-option: render: "cwd" is fixed for the session (cwd, agentDir, projectDir, env, home, machine, builtinDir are)',
    );
    expect(await code(session.render({ deadlineMs: -1 }))).toBe(
      "SyspromptError bad-option: deadlineMs: must be a number of milliseconds, 0 or more, got -1",
    );
    expect(await code(session.render())).toBe("resolved");
    session.close();
    session.close();
    expect(await code(session.render())).toBe(
      "SyspromptError session-closed: render: the session is closed",
    );
  });

  it("renders called together run one after the other, each diffed against the one before", async () => {
    const { session } = setup();
    // The first does more work (the tree): run side by side, it would finish last.
    const [a, b, c] = await Promise.all([
      session.render({ model: "one", workspaceTree: true }),
      session.render({ model: "two" }),
      session.render({ model: "two" }),
    ]);
    expect([a.changes, b.changes, c.changes]).toEqual([
      undefined,
      { environment: sectionText(b.result, "environment"), workspace_tree: null },
      undefined,
    ]);
    session.close();
  });
});

describe("createPromptSession: the deadline", () => {
  it("a step late in the first render gives its fallback then, and runs again on the next", async () => {
    const { root, options, session } = setup();
    let release: () => void = () => undefined;
    io.hold = {
      suffix: "/project/AGENTS.md",
      released: new Promise((resolve) => {
        release = resolve;
      }),
    };
    // Generous: every other step must finish within it on a loaded machine.
    const late = await session.render({ deadlineMs: 1000 });
    io.hold = undefined;
    // Only the held step was late (a step late for another reason would be read again too).
    const lateSteps = late.result.steps.filter((s) => s.status === "timeout");
    expect(lateSteps.map((s) => s.name)).toEqual(["context"]);
    expect(sectionText(late.result, "project_context")).toBeUndefined();
    release();
    // Let the late work finish, so what the next render reads is its own.
    await new Promise((r) => setTimeout(r, 50));
    reads(root);
    const next = await session.render();
    expect(reads(root)).toEqual([
      "read <root>/project/AGENTS.md",
      "read <root>/project/docs/style.md",
    ]);
    expect(next.result.steps.map((s) => [s.name, s.status])).toEqual([
      ["builtin", "ok"],
      ["user", "ok"],
      ["project", "ok"],
      ["context", "ok"],
      ["rule-files", "ok"],
      ["skills", "ok"],
      ["environment", "ok"],
      ["git", "skipped"],
      ["tree", "skipped"],
    ]);
    expect(comparable(next.result)).toEqual(comparable(await renderSystemPrompt(options)));
    expect(next.changes).toEqual({ project_context: sectionText(next.result, "project_context") });
    session.close();
  });
});
