import { constants } from "node:fs";
import { appendFile, lstat, mkdir, open, rm, utimes, writeFile } from "node:fs/promises";
import { dirname, extname, join, relative, sep } from "node:path";
import { DEFAULT_TOOLS } from "../../gather/guidelines/index.js";
import { walkFolders } from "../../repo-files/index.js";
import type { SessionOverrides } from "../../session/index.js";

/** The agent actions `explain --simulate` tries, in the order it reports them. */
export const SIMULATED_ACTIONS = [
  "source-edited",
  "file-added",
  "folder-added",
  "next-day",
  "tool-added",
  "agents-md-edited",
] as const;

export type SimulatedAction = (typeof SIMULATED_ACTIONS)[number];

export const ACTION_LABELS: Record<SimulatedAction, string> = {
  "source-edited": "source file edited",
  "file-added": "file added",
  "folder-added": "folder added",
  "next-day": "the next day",
  "tool-added": "tool added",
  "agents-md-edited": "AGENTS.md edited",
};

/** An action done to the copy: what it did, the options of the render after it, and how to undo it. */
export interface Done {
  /** What changed, in a few words (a path relative to cwd, a tool, a date). */
  detail: string;
  overrides: SessionOverrides;
  undo(): Promise<void>;
}

/** What the actions work on: the copy, never the project. */
export interface ActionContext {
  /** cwd inside the copy. */
  cwd: string;
  /** The copy of the project root (cwd or above it). */
  root: string;
  now: Date;
  /** The time of the entries an action writes (see {@link actionTime}). */
  stamp: Date;
  tools: readonly string[];
  /** The source file the edit and the added file are made beside; null when the copy has none. */
  source: string | null;
}

/** Files the simulation makes; names no project is likely to have (a taken one gets a number). */
const NEW_FILE = "simulated-new-file";
const NEW_FOLDER = "simulated-new-folder";
/** The line an edit appends: the prompt never shows it, only the size and time it gives the file. */
const EDIT_LINE = "\nsimulated edit (sysprompt explain --simulate)\n";
const INSTRUCTION = "\n- A simulated instruction added by sysprompt explain --simulate.\n";
/** Tools tried, in order, for "tool added": the first one not selected is added. */
const EXTRA_TOOLS = ["grep", "find", "ls", "web_search"];
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * What an action's files are stamped with: a minute after the clock of the
 * renders or after the newest entry of the copy, whichever is later — not the
 * wall clock, so a simulation gives the same figures on every run (the tree
 * shows times), and the touched entries are the newest, as an agent's are.
 */
const ACTION_AFTER_MS = 60_000;

/** Extensions of source files, for the file an agent edits. */
const SOURCE_EXTENSIONS = new Set(
  "ts tsx js jsx mjs cjs py go rs java kt rb c h cc cpp hpp cs swift php scala lua sh".split(" "),
);
/** Folders whose files are build output, not sources: never the one edited. */
const NOT_SOURCE_FOLDERS = new Set(["dist", "build", "out", "coverage", "target", "vendor"]);
/** Folders searched for the source file, at most: the copy is capped, this walk is too. */
const MAX_SOURCE_SEARCH = 2000;
/** The context file names an AGENTS.md edit looks for, nearest cwd first. */
const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"];

export async function act(action: SimulatedAction, ctx: ActionContext): Promise<Done> {
  switch (action) {
    case "source-edited":
      return ctx.source ? editFile(ctx.source, EDIT_LINE, ctx) : addFile(ctx.cwd, ".ts", ctx);
    case "file-added":
      return addFile(ctx.source ? dirname(ctx.source) : ctx.cwd, sourceExt(ctx.source), ctx);
    case "folder-added":
      return addFolder(ctx);
    case "next-day": {
      const now = new Date(ctx.now.getTime() + DAY_MS);
      return { detail: `now ${now.toISOString()}`, overrides: { now }, undo: async () => {} };
    }
    case "tool-added": {
      const tool = EXTRA_TOOLS.find((t) => !ctx.tools.includes(t)) ?? `tool${ctx.tools.length}`;
      return {
        detail: `+${tool}`,
        overrides: { tools: [...ctx.tools, tool] },
        undo: async () => {},
      };
    }
    case "agents-md-edited":
      return editInstructions(ctx);
  }
}

/**
 * The first source file, folders nearest cwd first and by name within a
 * level: what an agent most plausibly edits, chosen the same way every run.
 * Hidden and build-output folders are passed over; only regular files count
 * (the copy holds nothing else).
 */
export async function pickSourceFile(cwd: string): Promise<string | null> {
  let found: string | null = null;
  await walkFolders<undefined>(cwd, undefined, {
    order: "breadth-first",
    maxFolders: MAX_SOURCE_SEARCH,
    async *visit(folder) {
      for (const { name } of folder.entries) {
        if (name.startsWith(".")) continue;
        const path = join(folder.path, name);
        const s = await lstat(path).catch(() => undefined);
        if (s?.isFile() && SOURCE_EXTENSIONS.has(extname(name).slice(1))) {
          found = path;
          folder.stop();
          return;
        }
        if (s?.isDirectory() && !NOT_SOURCE_FOLDERS.has(name)) yield { name, state: undefined };
      }
    },
  });
  return found;
}

function sourceExt(source: string | null): string {
  return source ? extname(source) : ".ts";
}

/** Appends `line` to a file of the copy; the undo puts back its bytes and times. */
async function editFile(path: string, line: string, ctx: ActionContext): Promise<Done> {
  const before = await lstat(path);
  const bytes = await readRegular(path);
  await appendFile(path, line, {
    flag: constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW,
  });
  return {
    detail: show(path, ctx),
    overrides: {},
    undo: async () => {
      await writeFile(path, bytes, {
        flag: constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW,
      });
      await utimes(path, before.atime, before.mtime);
    },
  };
}

async function addFile(dir: string, ext: string, ctx: ActionContext): Promise<Done> {
  const path = await freeName(dir, NEW_FILE, ext);
  return made(path, ctx, () => writeFile(path, "export {};\n", { flag: "wx" }));
}

async function addFolder(ctx: ActionContext): Promise<Done> {
  const path = await freeName(ctx.cwd, NEW_FOLDER, "");
  return made(
    path,
    ctx,
    async () => {
      await mkdir(path);
      await writeFile(join(path, `index${sourceExt(ctx.source)}`), "export {};\n", { flag: "wx" });
    },
    "/",
  );
}

/** Makes a new entry in the copy; the undo removes it and gives its folder back its times. */
async function made(
  path: string,
  ctx: ActionContext,
  make: () => Promise<void>,
  suffix = "",
): Promise<Done> {
  const parent = dirname(path);
  const before = await lstat(parent);
  await make();
  const stamp = stampOf(ctx);
  await stampAll(path, stamp);
  await utimes(parent, stamp, stamp);
  return {
    detail: `${show(path, ctx)}${suffix}`,
    overrides: {},
    undo: async () => {
      await rm(path, { recursive: true, force: true });
      await utimes(parent, before.atime, before.mtime);
    },
  };
}

/** The instruction file nearest cwd inside the copy gets a line; without one, cwd gets an AGENTS.md. */
async function editInstructions(ctx: ActionContext): Promise<Done> {
  for (let dir = ctx.cwd; ; dir = dirname(dir)) {
    for (const name of INSTRUCTION_FILES) {
      const path = join(dir, name);
      const s = await lstat(path).catch(() => undefined);
      if (s?.isFile()) return editFile(path, INSTRUCTION, ctx);
    }
    if (dir === ctx.root || !`${dir}${sep}`.startsWith(`${ctx.root}${sep}`)) break;
  }
  const path = join(ctx.cwd, "AGENTS.md");
  const done = await made(path, ctx, () =>
    writeFile(path, INSTRUCTION.trimStart(), { flag: "wx" }),
  );
  return { ...done, detail: `${done.detail} (added: the project has none)` };
}

function stampOf(ctx: ActionContext): Date {
  return ctx.stamp;
}

/** A minute after `now` or after the newest mtime below `root`, whichever is later. */
export async function actionTime(root: string, now: Date): Promise<Date> {
  let newest = now.getTime();
  await walkFolders<undefined>(root, undefined, {
    async *visit(folder) {
      for (const { name } of folder.entries) {
        const s = await lstat(join(folder.path, name)).catch(() => undefined);
        if (!s) continue;
        newest = Math.max(newest, s.mtimeMs);
        if (s.isDirectory()) yield { name, state: undefined };
      }
    },
  });
  return new Date(Math.ceil(newest / 1000) * 1000 + ACTION_AFTER_MS);
}

/** Gives a new entry, and everything in it, the time `stamp` (each folder after what it holds). */
async function stampAll(path: string, stamp: Date): Promise<void> {
  if ((await lstat(path)).isDirectory()) {
    await walkFolders<undefined>(path, undefined, {
      onUnreadable: (_path, _rel, error) => {
        throw error;
      },
      async *visit(folder) {
        for (const { name } of folder.entries) {
          const child = join(folder.path, name);
          if ((await lstat(child)).isDirectory()) yield { name, state: undefined };
          await utimes(child, stamp, stamp);
        }
      },
    });
  }
  await utimes(path, stamp, stamp);
}

/** `base` + ext, or `base-2` + ext, … : a name not taken in `dir`. */
async function freeName(dir: string, base: string, ext: string): Promise<string> {
  for (let n = 1; ; n++) {
    const path = join(dir, `${n === 1 ? base : `${base}-${n}`}${ext}`);
    if (!(await lstat(path).catch(() => undefined))) return path;
  }
}

async function readRegular(path: string): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** A path of the copy as the report shows it: relative to cwd, with forward slashes. */
function show(path: string, ctx: ActionContext): string {
  const rel = relative(ctx.cwd, path).split(sep).join("/");
  return rel === "" ? "." : rel;
}

/** The tools of the baseline: the option, else the default ones. */
export function baselineTools(tools: readonly string[] | undefined): readonly string[] {
  return tools ?? DEFAULT_TOOLS;
}
