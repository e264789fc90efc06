/**
 * The hook's full path, loaded only when the quick answer (`fast.ts`)
 * cannot say "nothing new": the snapshot's probe, then config, preset and
 * rules loaded afresh, the session's state merged under its lock, and the
 * memo that lets the next calls answer quickly.
 */
import { dirname, join, resolve } from "node:path";
import type { CacheLocation } from "../_cache-location.js";
import { UNCLOSABLE_RESULT } from "../_fence.js";
import { expandHome } from "../_paths.js";
import { globRuleFolders, type TouchedFile } from "../gather/context/index.js";
import { contextKey, ruleKey } from "../gather/context/touch-keys.js";
import { realWorkingFolder } from "../gather/roots.js";
import { globSuffixes, RULE_FORMATS } from "../gather/rules/index.js";
import { NO_DEADLINE, projectReach, withPrivateLook } from "../repo-files/index.js";
import { formatTouched } from "../touch/format.js";
import type { Diagnostic } from "../types.js";
import { type HookWhere, hookLoading, mayBringSomething } from "./context.js";
import type { HookProgress } from "./deadline.js";
import { MAX_CHECKED, resolved, searchedFolders, stampOf, watchedPaths } from "./fast.js";
import { geminiCut } from "./gemini-cut.js";
import type { HookCall, ToolAgent } from "./input.js";
import { noteOf } from "./note.js";
import {
  distilledCut,
  GEMINI_CHARS,
  GEMINI_SHELL_KEPT_CHARS,
  geminiShows,
  shellCut,
} from "./reply.js";
import { type HookMemo, type HookSnapshot, usableSnapshot } from "./snapshot.js";
import { readSession, type SessionState, withSessionLock, writeSession } from "./state.js";

/** Most folders a memo keeps stamped empty; the oldest go first. */
export const MAX_MEMO_FOLDERS = 1024;
/** Folders above a path stamped before a pass (a deeper path is not memoised). */
const MAX_STAMPED = 80;

export interface SlowCall {
  where: HookWhere;
  now: number;
  location: CacheLocation;
  session: SessionState;
  snapshot: HookSnapshot | undefined;
  late: () => boolean;
  /**
   * The most text, as Gemini CLI counts it ({@link GEMINI_CHARS}), the call's
   * result keeps uncut at its default cut of 40,000 characters (`replyStart`):
   * less by what its settings lower the cut ({@link geminiCut}).
   */
  room: number;
  /**
   * For a Gemini CLI tool it distills when its settings turn context
   * management on (every tool but read_file and read_many_files), the most
   * text its result keeps undistilled (`replyStart`); used only then.
   */
  distilledRoom?: number;
  /** What the call itself has to say (the paths its caps left out): said with the pass's warnings. */
  said?: readonly Diagnostic[];
  /** Whether files found can follow the tool's result (`callContext`'s): asked before any is kept as given. */
  appendable?: (files: readonly TouchedFile[]) => boolean;
  /** Where your own glob rules' text goes once matched, for an answer past the budget. */
  progress?: HookProgress;
}

/**
 * The text `paths` of `call` bring in that the session was not given, or
 * none, with at most one line worth saying; the session's state updated
 * (unless `late()`). Throws what loading threw (the caller makes it a note).
 * One look at your private places for the call, as for a render (withPrivateLook, fx104b).
 */
export function slowContext(
  agent: ToolAgent,
  call: HookCall,
  paths: readonly string[],
  c: SlowCall,
): Promise<{ text?: string; note?: string }> {
  return withPrivateLook(() => slowContextOnce(agent, call, paths, c));
}

async function slowContextOnce(
  agent: ToolAgent,
  call: HookCall,
  paths: readonly string[],
  c: SlowCall,
): Promise<{ text?: string; note?: string }> {
  const home = c.where.home;
  const trusted = c.where.trusted !== false;
  if (c.snapshot !== undefined) {
    const view = await lookAt(paths, call.cwd, c.snapshot, home);
    const probed = new Set(c.session.keys);
    if (!(await mayBringSomething(paths, c.snapshot, probed, home))) {
      // Nothing new: kept in the memo, so the next call in these folders says so at once.
      const snapshot = c.snapshot;
      await withSessionLock(c.location, () => {
        const fresh = readSession(c.location);
        if (c.late() || !sameSnapshot(fresh.snapshot, snapshot)) return;
        // A folder whose file was refused (the agent loads it, git ignores it) is not empty: looked at each time.
        const found = new Set([...fresh.keys, ...probed]);
        const memo = memoOf(view, snapshot, found, keptSnapshot(fresh, call.cwd, c.now, trusted));
        writeSession(
          c.location,
          agent,
          { keys: fresh.keys, snapshot: { ...snapshot, memo } },
          !fresh.found,
        );
      }).catch(() => {
        // The memo only saves later calls work: not kept this time, they look again.
      });
      const note = noteOf(c.said ?? []);
      return note === undefined ? {} : { note };
    }
  }
  // Gemini CLI's settings may cut its shell result below the 40,000 characters the room was counted for,
  // or distill every other tool's result but a read's past 40,000.
  const shell = c.room !== Number.POSITIVE_INFINITY;
  const settings =
    shell || c.distilledRoom !== undefined ? await geminiCut(call.cwd, c.where) : undefined;
  const distilled = !shell && settings?.distills === true;
  const cut = shell ? (settings?.kept ?? GEMINI_SHELL_KEPT_CHARS) : GEMINI_SHELL_KEPT_CHARS;
  const cutWhy = (size?: number) => (distilled ? distilledCut(size) : shellCut(size, cut));
  if (shell && settings?.unjudged !== undefined)
    return {
      note: `nothing added: Gemini CLI's settings cannot be judged (${settings.unjudged}), so its cut of a shell command's output is taken as the smallest; the files come with a later call`,
    };
  const room = distilled
    ? (c.distilledRoom ?? Number.POSITIVE_INFINITY)
    : c.room - (GEMINI_SHELL_KEPT_CHARS - cut);
  if (room <= 0)
    return {
      note: `nothing added: the tool's result ${cutWhy()}; the files come with a later call`,
    };
  const loading = await hookLoading(
    agent,
    call.cwd,
    { ...c.where, now: c.now },
    call.tool,
    distilled,
  );
  const snapshot = loading.snapshot;
  // Gemini CLI shows the text with each `<` and `>` escaped: what a file leaves open is closed as it reads there.
  const shown = agent === "gemini-cli" ? geminiShows : undefined;
  // Your own glob rules first, alone: no repository file is read for them, so a call the
  // project's part holds past the budget still sends them (fx82d; rev78b F2's limit).
  if (c.progress !== undefined && !c.late()) {
    const own = await loading.ownPass(paths, c.session.keys);
    const fits = own.files.length > 0 && (c.appendable === undefined || c.appendable(own.files));
    const text = fits ? formatTouched(own.files, call.cwd, shown) : undefined;
    if (
      text !== undefined &&
      (room === Number.POSITIVE_INFINITY || GEMINI_CHARS.size(text) <= room)
    )
      c.progress.ownText = text;
  }
  const view = await lookAt(paths, call.cwd, snapshot, home);
  const given = new Set(c.session.keys);
  let touched = await loading.pass(paths, given);
  // What the call itself says (its paths cut, `said`) and what each pass says: one note at the end.
  const project = [call.cwd, view.base.realRoot, view.base.realCwd];
  let failed: string | undefined;
  // Past the caller's deadline the text reaches no one: nothing is kept as given.
  if (c.late()) return {};
  const ours = [...given].filter((k) => !c.session.keys.has(k));
  // Files the tool's result cannot take (opencode's: an element nothing closes) are neither sent nor kept (rev82d F2).
  const unappendable = () =>
    touched.files.length > 0 && c.appendable !== undefined && !c.appendable(touched.files);
  const refused = {
    note: `nothing added: the tool's result ${UNCLOSABLE_RESULT}; the files come with a later call`,
  };
  if (unappendable()) return refused;
  // A text Gemini CLI would cut with the shell output before it is neither sent nor kept as given.
  const overRoom = () => {
    if (room === Number.POSITIVE_INFINITY || touched.files.length === 0) return undefined;
    const size = GEMINI_CHARS.size(formatTouched(touched.files, call.cwd, shown));
    return size > room ? size : undefined;
  };
  try {
    const kept = await withSessionLock(c.location, async () => {
      const fresh = readSession(c.location);
      let keys: Set<string>;
      if (ours.some((k) => fresh.keys.has(k))) {
        // Another call of this session gave some of the same meanwhile: looked up again against what it kept.
        keys = new Set(fresh.keys);
        touched = await loading.pass(paths, keys);
      } else keys = new Set([...fresh.keys, ...ours]);
      if (c.late() || overRoom() !== undefined || unappendable()) return false;
      // Rules cut short by the deadline: the next call looks again rather than answer from these.
      // A pass cut short (deadline, folders, paths) did not look at every folder it would stamp empty.
      const kept = loading.partial
        ? undefined
        : cutShort(touched.diagnostics)
          ? snapshot
          : {
              ...snapshot,
              memo: memoOf(view, snapshot, keys, keptSnapshot(fresh, call.cwd, c.now, trusted)),
            };
      writeSession(c.location, agent, { keys, snapshot: kept }, !fresh.found);
      return true;
    });
    if (!kept.value) {
      if (!c.late() && unappendable()) return refused;
      const size = overRoom();
      return size === undefined || c.late()
        ? {}
        : {
            note: `nothing added: the tool's result ${cutWhy(size)}; the files come with a later call`,
          };
    }
  } catch (error) {
    // The files still go to the model; they may come once more in this session.
    failed = `cannot keep what was given in ${c.location.path}: ${error instanceof Error ? error.message : String(error)}`;
  }
  const size = overRoom();
  if (size !== undefined)
    return {
      note: `nothing added: the tool's result ${cutWhy(size)}; the files come with a later call`,
    };
  // A file's text written `&lt;` where it could not be closed is said, as the loader's problems are (fx77c).
  const told: Diagnostic[] = [];
  const text =
    touched.files.length > 0
      ? formatTouched(touched.files, call.cwd, shown, (d) => told.push(d))
      : undefined;
  // Every warning, yours first (a repository's config warning no longer hides your rule's rewrite: rev79h F1).
  const said = noteOf([...(c.said ?? []), ...touched.diagnostics, ...told], project);
  const note = failed === undefined ? said : said === undefined ? failed : `${failed} | ${said}`;
  return { ...(text !== undefined ? { text } : {}), ...(note !== undefined ? { note } : {}) };
}

/** What the memo is built from, taken before a pass looks: a file added after it changes its stamp. */
interface View {
  base: Omit<HookMemo, "empty" | "checked">;
  targets: { real: string; isDir: boolean }[];
  stamps: Map<string, string>;
}

/** The project as a pass with `snapshot`'s options will see it, stamped before it looks. */
async function lookAt(
  paths: readonly string[],
  cwd: string,
  snapshot: HookSnapshot,
  home: string,
): Promise<View> {
  const o = snapshot.options;
  // From cwd's real folder, as the pass it stands for (loadContextForPaths) looks (rev57a F3).
  const realCwd = await realWorkingFolder(resolve(expandHome(cwd, home)), { home });
  const ceiling = o.ceilingDir === undefined ? undefined : resolve(o.ceilingDir);
  const reach = await projectReach({
    start: realCwd,
    home,
    trusted: true,
    ceiling,
    signal: NO_DEADLINE,
  });
  const folders = await globRuleFolders(o.rules, {
    cwd: realCwd,
    root: reach.root,
    ceiling,
    projectDir: o.projectDir,
  });
  const rules = folders.map(({ rule, realBase }) => {
    const suffixes = globSuffixes(rule.globs);
    return { key: ruleKey(rule.path), base: realBase, ...(suffixes ? { suffixes } : {}) };
  });
  const watch: Record<string, string> = {};
  for (const path of watchedPaths(reach.realRoot, realCwd)) watch[path] = stampOf(path);
  const targets: View["targets"] = [];
  const stamps = new Map<string, string>();
  for (const abs of paths) {
    const target = resolved(abs);
    if (target === undefined) continue;
    targets.push(target);
    let dir = target.isDir ? target.real : dirname(target.real);
    for (let n = 0; n < MAX_STAMPED && !stamps.has(dir); n++) {
      stamps.set(dir, stampOf(dir));
      if (dirname(dir) === dir) break;
      dir = dirname(dir);
    }
  }
  return { base: { realRoot: reach.realRoot, realCwd, watch, rules }, targets, stamps };
}

/**
 * The memo after a pass that left `keys` given: the folders the pass found
 * empty, stamped as they were before it looked, and the files it tried
 * every rule on, added to `earlier`'s memo. Its empty folders are kept when
 * it saw the same project (root, stamps, rules); its tried files only when
 * it is of the same snapshot (the same rules' globs).
 */
function memoOf(
  view: View,
  snapshot: HookSnapshot,
  keys: ReadonlySet<string>,
  earlier: HookSnapshot | undefined,
): HookMemo {
  const before = earlier?.memo;
  const base = (m: Omit<HookMemo, "empty" | "checked">) =>
    JSON.stringify([m.realRoot, m.realCwd, m.watch, m.rules]);
  const sameProject = before !== undefined && base(before) === base(view.base);
  const sameRules = sameProject && earlier?.at === snapshot.at;
  const memo: HookMemo = {
    ...view.base,
    empty: sameProject ? { ...before.empty } : {},
    checked: sameRules ? [...before.checked] : [],
  };
  for (const target of view.targets) {
    const dir = target.isDir ? target.real : dirname(target.real);
    const folders = searchedFolders(dir, memo);
    if (snapshot.options.contextFiles !== false && folders.length <= MAX_STAMPED) {
      for (const folder of folders) {
        const stamp = view.stamps.get(folder);
        if (keys.has(contextKey(folder)) || stamp === undefined || holdsFolderRules(folder))
          continue;
        delete memo.empty[folder];
        memo.empty[folder] = stamp;
      }
    }
    memo.checked = [...memo.checked.filter((p) => p !== target.real), target.real];
  }
  const empty = Object.keys(memo.empty);
  for (const old of empty.slice(0, Math.max(0, empty.length - MAX_MEMO_FOLDERS))) {
    delete memo.empty[old];
  }
  memo.checked = memo.checked.slice(-MAX_CHECKED);
  return memo;
}

/** The first names of the rule locations an agent also reads in folders below cwd (`.windsurf`, `.claude`, `CLAUDE.local.md`). */
const FOLDER_RULE_ENTRIES = [
  ...new Set(
    RULE_FORMATS.flatMap((f) =>
      f.locations.filter((l) => l.belowCwd === true).map((l) => l.rel.split("/")[0] ?? l.rel),
    ),
  ),
];

/**
 * Whether a folder holds rules of its own (Windsurf's, Claude Code's): such
 * a folder is never stamped empty, since a glob rule there that did not match
 * this path may match the next one, which only a full pass can tell.
 */
function holdsFolderRules(folder: string): boolean {
  return FOLDER_RULE_ENTRIES.some((name) => stampOf(join(folder, name)) !== "-");
}

/** The snapshot the session keeps now, when it is a usable one (of the call's trust). */
function keptSnapshot(
  fresh: SessionState,
  cwd: string,
  now: number,
  trusted: boolean,
): HookSnapshot | undefined {
  return usableSnapshot(fresh.snapshot, cwd, now, trusted);
}

/** Whether the session's kept snapshot is still `snapshot` (another call may have taken a newer one). */
function sameSnapshot(value: unknown, snapshot: HookSnapshot): boolean {
  const v = value as { at?: unknown; cwd?: unknown } | undefined;
  return v?.at === snapshot.at && v?.cwd === snapshot.cwd;
}

/**
 * The codes of a pass that stopped before it looked at every folder and rule
 * of its paths, or that gave less than it found (the total cut a file, which
 * a later call gives): its folders are not stamped as giving nothing new.
 */
const CUT_SHORT = new Set([
  "touch-deadline",
  "touch-too-deep",
  "touch-too-many",
  "context-total-cut",
  "touch-text-cut",
]);

function cutShort(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => CUT_SHORT.has(d.code));
}
