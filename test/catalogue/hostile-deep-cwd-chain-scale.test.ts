import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadContextFiles } from "../../src/gather/context/index.js";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { DEFAULT_RULE_SOURCES, traceRules } from "../../src/gather/rules/index.js";
import { MAX_CHAIN_FOLDERS } from "../../src/repo-files/index.js";
import { loadSkills } from "../../src/skills/load.js";
import { tempDir } from "../api/_helpers.js";

// A cwd hundreds of folders deep in a repository: each look-up walks the
// whole path in the kernel, and the context, rule and skills steps looked at
// every folder from the project root down, the context step searching each
// folder's project root again from it and asking realpath three times a
// folder, the rule step once a folder. At 300 deep the context step missed a
// 2 s deadline; at 1,000 deep every step did. Now each step looks at the
// project root and the MAX_CHAIN_FOLDERS folders nearest cwd, says so in one
// warning, and takes each folder's root and real path from its parent's.

/** Look-ups made: lstat and stat, and realpath (each a walk of the whole path per component). */
const looked = vi.hoisted(() => ({ stats: 0, realpaths: 0, held: 0, fds: new Set<number>() }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const counted = <F extends (...args: never[]) => unknown>(f: F, key: keyof typeof looked): F =>
    ((...args: Parameters<F>) => {
      looked[key]++;
      return f(...args);
    }) as F;
  const overrides = {
    lstatSync: counted(fs.lstatSync, "stats"),
    statSync: counted(fs.statSync, "stats"),
    realpathSync: Object.assign(counted(fs.realpathSync, "realpaths"), {
      native: counted(fs.realpathSync.native, "realpaths"),
    }),
    // A folder opened to be listed by its descriptor (a walk's held folder, fx90e): its real path is
    // one read of /proc/self/fd, no walk of the path, counted apart.
    openSync: ((path: string, flags?: number, mode?: number) => {
      const fd = fs.openSync(path, flags as number, mode);
      if (typeof flags === "number" && (flags & fs.constants.O_DIRECTORY) !== 0) looked.fds.add(fd);
      return fd;
    }) as typeof fs.openSync,
    closeSync: ((fd: number) => {
      looked.fds.delete(fd);
      return fs.closeSync(fd);
    }) as typeof fs.closeSync,
    // A realpath on Linux: the path opened with O_PATH, its real path read from /proc/self/fd.
    readlinkSync: ((path: string, options?: unknown) => {
      const fd = /^\/proc\/self\/fd\/(\d+)$/.exec(String(path))?.[1];
      if (fd !== undefined && looked.fds.has(Number(fd))) looked.held++;
      else if (fd !== undefined) looked.realpaths++;
      return fs.readlinkSync(path, options as BufferEncoding);
    }) as typeof fs.readlinkSync,
  };
  return { ...fs, default: { ...fs, ...overrides }, ...overrides };
});

vi.setConfig({ testTimeout: 30_000 });

const DEPTH = MAX_CHAIN_FOLDERS + 44;
/**
 * Look-ups a folder may cost a step: its file names, rule locations and the names that make it
 * another tool's clone (eight more since Sapling, Bazaar, Pijul, Darcs and Fossil's three were
 * added, rev50a F2; 48 measured), not the chain again.
 */
const PER_FOLDER = 56;

/** A repository whose cwd is DEPTH folders below its root; `at(n)` is the folder n below the root. */
function deepProject() {
  const base = tempDir();
  const root = join(base, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  const at = (n: number) => join(root, ...Array.from({ length: n }, () => "d"));
  mkdirSync(at(DEPTH), { recursive: true });
  return { root, at, cwd: at(DEPTH), home: join(base, "home") };
}

async function counting<T>(work: () => Promise<T>) {
  looked.stats = 0;
  looked.realpaths = 0;
  looked.held = 0;
  const value = await work();
  return { value, stats: looked.stats, realpaths: looked.realpaths, held: looked.held };
}

/** The one warning of a step, naming cwd, the root and how many folders it skipped. */
const cut = (cwd: string, root: string, what: string) => ({
  level: "warning",
  code: "cwd-too-deep",
  path: cwd,
  message: `cwd is ${DEPTH} folders below the project root ${root}: ${what} are looked for in the ${MAX_CHAIN_FOLDERS} nearest cwd only; the 44 folders just below the root were not looked at`,
});

describe("hostile repository: a cwd past the folder cap", () => {
  it("the context step reads the root's file and the nearest folders', warns once, and looks at each folder once", async () => {
    const { root, at, cwd, home } = deepProject();
    writeFileSync(join(root, "AGENTS.md"), "root rules\n");
    writeFileSync(join(at(10), "AGENTS.md"), "skipped rules\n");
    writeFileSync(join(at(DEPTH - 1), "AGENTS.md"), "near rules\n");
    const { value, stats, realpaths } = await counting(() =>
      loadContextFiles({ cwd, home, agentDir: join(home, "agent") }),
    );
    expect(value.files.map((f) => f.content)).toEqual(["root rules", "near rules"]);
    expect(value.diagnostics.filter((d) => d.code === "cwd-too-deep")).toEqual([
      cut(cwd, root, "context files"),
    ]);
    // 46,000 look-ups and 900 realpaths before (each folder's root searched from it up).
    expect(stats).toBeLessThan(PER_FOLDER * MAX_CHAIN_FOLDERS);
    expect(realpaths).toBeLessThan(20);
  });

  it("the rule step reads the nearest folders' rules, warns once, and asks no realpath a folder", async () => {
    const { root, at, cwd, home } = deepProject();
    writeFileSync(join(at(10), ".cursorrules"), "skipped rule\n");
    writeFileSync(join(cwd, ".cursorrules"), "near rule\n");
    const { value, stats, realpaths, held } = await counting(() =>
      traceRules({ cwd, home, agentDir: join(home, "agent"), sources: DEFAULT_RULE_SOURCES }),
    );
    expect(value.rules.map((r) => r.content)).toEqual(["near rule"]);
    expect(value.diagnostics.filter((d) => d.code === "cwd-too-deep")).toEqual([
      cut(cwd, root, "rule files"),
    ]);
    // A realpath a folder before (Roo's mode files are looked for in the folder itself).
    expect(stats).toBeLessThan(PER_FOLDER * MAX_CHAIN_FOLDERS);
    expect(realpaths).toBeLessThan(20);
    // Each folder listed is held and its real path read once by its descriptor (fx90e): at most
    // one such read a folder of the chain's nearest, no walk of the path.
    expect(held).toBeLessThanOrEqual(MAX_CHAIN_FOLDERS + 4);
  });

  it("the skills step searches the git root and the nearest folders, and warns once", async () => {
    const { root, at, cwd, home } = deepProject();
    const skill = (dir: string, name: string) => {
      mkdirSync(join(dir, ".agents", "skills", name), { recursive: true });
      writeFileSync(
        join(dir, ".agents", "skills", name, "SKILL.md"),
        `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBody.\n`,
      );
    };
    skill(root, "at-root");
    skill(at(10), "skipped");
    skill(at(DEPTH - 1), "near");
    const { value, stats } = await counting(() =>
      loadSkills({ cwd, home, agentDir: join(home, "agent") }),
    );
    expect(value.skills.map((s) => s.name).sort()).toEqual(["at-root", "near"]);
    expect(value.diagnostics.filter((d) => d.code === "cwd-too-deep")).toEqual([
      cut(cwd, root, "skills"),
    ]);
    expect(stats).toBeLessThan(PER_FOLDER * MAX_CHAIN_FOLDERS);
  });

  it("on touch, a file of a skipped folder is not taken as one the prompt holds", async () => {
    const { at, cwd, home } = deepProject();
    writeFileSync(join(at(10), "AGENTS.md"), "skipped rules\n");
    mkdirSync(join(cwd, "sub"));
    symlinkSync(join(at(10), "AGENTS.md"), join(cwd, "sub", "AGENTS.md"));
    const got = await loadContextForPaths(["sub/x.ts"], { cwd, home });
    // The prompt left it out with the folders past the cap: the link below cwd brings it.
    expect(got.files).toEqual([
      { path: join(cwd, "sub", "AGENTS.md"), content: "skipped rules", kind: "context" },
    ]);
  });
});
