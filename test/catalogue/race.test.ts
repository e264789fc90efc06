import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";
import { runTemplatesCase, type TemplatesCase } from "./_templates.js";

// A file deleted between the listing that found it and the read: the file
// system is wrapped so that, once a given folder has been listed (or a given
// file looked at), the file is removed, exactly in that gap. The read then
// fails as "missing", which must be a diagnostic (or, in the tree, an entry
// not shown), never an exception.

/** Armed removals: after this path is listed or looked at, remove that one. Each fires once. */
const races = vi.hoisted(() => new Map<string, string>());

function fire(path: unknown): void {
  const key = String(path);
  const victim = races.get(key);
  if (victim === undefined) return;
  races.delete(key);
  rmSync(victim, { force: true });
}

// Gathering looks things up and lists folders through src/_io.ts (which calls
// the file system synchronously, in slices): the gap is after its call.
vi.mock("../../src/_io.js", async (importOriginal) => {
  const io = await importOriginal<typeof import("../../src/_io.js")>();
  const readdir = (async (...args: Parameters<typeof io.readdir>) => {
    const listed = await io.readdir(...args);
    fire(args[0]);
    return listed;
  }) as typeof io.readdir;
  const lstat = async (path: string) => {
    const found = await io.lstat(path);
    fire(path);
    return found;
  };
  // Look-ups of a name that may be missing (context files, rule files) answer undefined for it.
  const lstatOrMissing = async (path: string) => {
    const found = await io.lstatOrMissing(path);
    fire(path);
    return found;
  };
  // The walker reads a folder through a handle, a batch at a time: the gap is after its close.
  const opendirSync = ((...args: Parameters<typeof io.opendirSync>) => {
    const handle = io.opendirSync(...args);
    const close = handle.closeSync.bind(handle);
    handle.closeSync = () => {
      close();
      // A held folder is read by its descriptor (`/proc/self/fd/N`); `noteAs` is its path.
      fire(args[2] ?? args[0]);
    };
    return handle;
  }) as typeof io.opendirSync;
  // A whole listing read at once (project folders: sections, prompts, presets), by descriptor too.
  const readdirEntriesSync = ((...args: Parameters<typeof io.readdirEntriesSync>) => {
    const listed = io.readdirEntriesSync(...args);
    fire(args[1] ?? args[0]);
    return listed;
  }) as typeof io.readdirEntriesSync;
  return { ...io, readdir, lstat, lstatOrMissing, opendirSync, readdirEntriesSync };
});

// Some listings (prompt templates, agents) call node:fs/promises themselves.
vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  const readdir = (async (...args: Parameters<typeof fs.readdir>) => {
    const listed = await fs.readdir(...args);
    fire(args[0]);
    return listed;
  }) as typeof fs.readdir;
  return { ...fs, default: { ...fs, readdir }, readdir };
});

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  // The tree used to list folders with the callback form…
  const readdir = ((path: string, ...rest: unknown[]) => {
    const done = rest.pop() as (error: unknown, entries: unknown) => void;
    (fs.readdir as (...a: unknown[]) => void)(path, ...rest, (error: unknown, entries: unknown) => {
      if (!error) fire(path);
      done(error, entries);
    });
  }) as typeof fs.readdir;
  // …and, since it lists them synchronously in slices, with the synchronous one.
  const readdirSync = ((path: string, ...rest: unknown[]) => {
    const listed = (fs.readdirSync as (...a: unknown[]) => unknown)(path, ...rest);
    fire(path);
    return listed;
  }) as typeof fs.readdirSync;
  return { ...fs, default: { ...fs, readdir, readdirSync }, readdir, readdirSync };
});

const APP = "project/app";
const PI = `${APP}/.pi`;

/** Arms: once `listed` (under the root) is listed or looked at, `victim` is removed. */
const race = (listed: string, victim: string) => (root: string) => {
  races.set(join(root, listed), join(root, victim));
};

const cases: CatalogueCase[] = [
  {
    name: "race-context-file",
    layout: [[`${APP}/AGENTS.md`, "Gone before it is read.\n"]],
    before: race(`${APP}/AGENTS.md`, `${APP}/AGENTS.md`),
    expected: (root) => [
      diag("warning", "file-missing", "file not found", join(root, APP, "AGENTS.md")),
    ],
  },
  {
    name: "race-section",
    layout: [[`${PI}/sections/rules.md`, "Gone before it is read.\n"]],
    before: race(`${PI}/sections`, `${PI}/sections/rules.md`),
    expected: (root) => [
      diag(
        "warning",
        "file-missing",
        `cannot read file: ENOENT: no such file or directory, stat '${join(root, PI, "sections/rules.md")}'`,
        join(root, PI, "sections/rules.md"),
      ),
    ],
  },
  {
    name: "race-skill",
    layout: [[`${PI}/skills/beta/SKILL.md`, "---\nname: beta\ndescription: B.\n---\n"]],
    bad: [`${PI}/skills/beta`],
    before: race(`${PI}/skills/beta`, `${PI}/skills/beta/SKILL.md`),
    expected: (root) => [
      diag(
        "warning",
        "file-missing",
        `cannot read file: ENOENT: no such file or directory, stat '${join(root, PI, "skills/beta/SKILL.md")}'`,
        join(root, PI, "skills/beta/SKILL.md"),
      ),
    ],
  },
  {
    name: "race-tree-entry",
    layout: [[`${APP}/gone.md`, "Gone before it is shown.\n"]],
    options: { workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" },
    before: race(APP, `${APP}/gone.md`),
    // Not shown: the tree is the clean one.
    expected: () => [],
    verify: (bad: Rendered) => {
      expect(races.size).toBe(0);
      expect(bad.result.text).not.toContain("gone.md");
    },
  },
];

const templateCases: TemplatesCase[] = [
  {
    name: "race-prompt-template",
    layout: [[`${PI}/prompts/fix.md`, "Fix $1.\n"]],
    before: race(`${PI}/prompts`, `${PI}/prompts/fix.md`),
    expected: (root) => [
      diag(
        "warning",
        "file-missing",
        `cannot read file: ENOENT: no such file or directory, stat '${join(root, PI, "prompts/fix.md")}'`,
        join(root, PI, "prompts/fix.md"),
      ),
    ],
  },
];

describe("catalogue: a file deleted between listing and reading", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => expect(races.size).toBe(0)));
  for (const c of templateCases) {
    it(c.name, () => runTemplatesCase(c).then(() => expect(races.size).toBe(0)));
  }
});
