import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadPreset } from "../../src/agents/load.js";
import { normalizeOptions } from "../../src/options/normalize.js";
import { resolveRenderOptions } from "../../src/render-options.js";
import { tempDir } from "../api/_helpers.js";

// rev60b F1: from a cwd 1,900 folders deep in a trusted repository, resolving a
// render's options searched the project root for the agent preset's reach
// (loadPreset -> projectReach -> findProjectRoot): 11 look-ups a folder of 4 KB
// paths, 20,908 in all, with no signal, before the deadline could act:
// `--deadline 1` returned after 13 s on a loaded machine and your own AGENTS.md
// was lost. Now the project's preset is read confined to cwd, which needs no
// search; only a preset that leads out of cwd asks for the root, within the
// render's deadline.

/** Look-ups made (lstat, stat, realpath: native, or an O_PATH open read back from /proc). */
const looked = vi.hoisted(() => ({ count: 0 }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const counted = <F extends (...args: never[]) => unknown>(f: F): F =>
    ((...args: Parameters<F>) => {
      looked.count++;
      return f(...args);
    }) as F;
  const overrides = {
    lstatSync: counted(fs.lstatSync),
    statSync: counted(fs.statSync),
    realpathSync: Object.assign(counted(fs.realpathSync), {
      native: counted(fs.realpathSync.native),
    }),
    readlinkSync: ((path: string, options?: unknown) => {
      if (String(path).startsWith("/proc/self/fd/")) looked.count++;
      return fs.readlinkSync(path, options as BufferEncoding);
    }) as typeof fs.readlinkSync,
  };
  return { ...fs, default: { ...fs, ...overrides }, ...overrides };
});

vi.setConfig({ testTimeout: 30_000 });

const DEPTH = 300;

/** A trusted repository whose cwd is DEPTH folders below its root. */
function deepProject() {
  const base = tempDir();
  const root = join(base, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  const cwd = join(root, ...Array.from({ length: DEPTH }, () => "d"));
  mkdirSync(join(cwd, ".pi", "agents"), { recursive: true });
  const home = join(base, "home");
  mkdirSync(home);
  return { root, cwd, home };
}

async function counting<T>(work: () => Promise<T>) {
  looked.count = 0;
  const value = await work();
  return { value, lookups: looked.count };
}

describe("hostile repository: the agent preset from a cwd hundreds of folders deep", () => {
  it("resolving the options searches no project root when the project has no preset", async () => {
    const { cwd, home } = deepProject();
    const { value, lookups } = await counting(() =>
      resolveRenderOptions({ cwd, home, env: {}, deadlineMs: 1 }),
    );
    expect(value.preset.report.name).toBe("pi");
    // 3,308 before: the root searched from cwd, eleven names a folder.
    expect(lookups).toBeLessThan(DEPTH);
  });

  it("a preset in the working folder is read without the search", async () => {
    const { cwd, home } = deepProject();
    writeFileSync(join(cwd, ".pi", "agents", "pi.yaml"), "agentName: Deep Agent\n");
    const { value, lookups } = await counting(() =>
      resolveRenderOptions({ cwd, home, env: {}, deadlineMs: 1 }),
    );
    expect(value.preset.agentName).toBe("Deep Agent");
    // The door's planted-folder check looks at each folder on the file's way once (rev64a F1);
    // the root search would ask several markers at every level.
    expect(lookups).toBeLessThan(2 * DEPTH);
  });

  it("a preset that leads to the repository's top is read once the root is found in time", async () => {
    const { root, cwd, home } = deepProject();
    writeFileSync(join(root, "shared.yaml"), "agentName: Shared Agent\n");
    symlinkSync(join(root, "shared.yaml"), join(cwd, ".pi", "agents", "pi.yaml"));
    const { preset, diagnostics } = await loadPreset("pi", await normalizeOptions({ cwd, home }), {
      required: false,
      skipBuiltin: true,
    });
    expect(diagnostics).toEqual([]);
    expect(preset.agentName).toBe("Shared Agent");
  });

  it("past the deadline the search stops and that preset stays refused", async () => {
    const { root, cwd, home } = deepProject();
    writeFileSync(join(root, "shared.yaml"), "agentName: Shared Agent\n");
    symlinkSync(join(root, "shared.yaml"), join(cwd, ".pi", "agents", "pi.yaml"));
    const folders = await normalizeOptions({ cwd, home });
    const signal = AbortSignal.abort(new Error("deadline"));
    const { value, lookups } = await counting(() =>
      loadPreset("pi", { ...folders, signal }, { required: false, skipBuiltin: true }),
    );
    expect(value.preset.agentName).toBeNull();
    expect(value.diagnostics.map((d) => d.code)).toEqual(["file-outside-project"]);
    expect(lookups).toBeLessThan(DEPTH);
  });
});
