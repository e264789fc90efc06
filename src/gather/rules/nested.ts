import { join } from "node:path";
import { pushAll } from "../../_arrays.js";
import { checkpoint } from "../../_pace.js";
import { toPosix } from "../../_paths.js";
import { type Reach, readRepoCapped, walkFolders, withCutMarker } from "../../repo-files/index.js";
import type { Diagnostic } from "../../types.js";
import { accountDiagnostic, disabledDiagnostics } from "./account.js";
import { findRuleFiles, type ListingBudget } from "./discover.js";
import { DEFAULT_RULE_SOURCES, formatWanted, RULE_FORMATS, type RuleFormat } from "./formats.js";
import { toRule } from "./load.js";
import type { Rule, RuleFate } from "./types.js";

/**
 * The project formats, each with only its locations an agent also finds in
 * folders below cwd (`belowCwd`), under the chosen sources. `sources` may
 * come from a session file a hook kept: anything but a list of strings is
 * the default.
 */
export function belowCwdFormats(sources: unknown): RuleFormat[] {
  const names =
    Array.isArray(sources) && sources.every((s) => typeof s === "string")
      ? sources
      : DEFAULT_RULE_SOURCES;
  const wanted = new Set<string>(names);
  return RULE_FORMATS.filter((f) => f.scope === "project" && formatWanted(f, wanted))
    .map((f) => ({ ...f, locations: f.locations.filter((l) => l.belowCwd === true) }))
    .filter((f) => f.locations.length > 0);
}

/**
 * The rule files of `formats` in one folder below cwd, found and read as the
 * rules step reads the folders above (confined to the project's real root,
 * through the door, each capped at `maxBytes`). A file left out (refused,
 * unreadable, switched off by its fields) is a diagnostic, not a rule.
 * Once `signal` fires, nothing more is listed or read: what was found is given.
 */
export async function loadFolderRules(
  dir: string,
  formats: readonly RuleFormat[],
  o: { reach: Reach; maxBytes: number; signal?: AbortSignal },
): Promise<{ rules: Rule[]; diagnostics: Diagnostic[] }> {
  const rules: Rule[] = [];
  const diagnostics: Diagnostic[] = [];
  const disabled: { path: string; reason: string }[] = [];
  for (const format of formats) {
    if (o.signal?.aborted) break;
    // In the rules step's order: by path, whichever location found it.
    const found = (
      await Promise.all(format.locations.map((l) => findRuleFiles(dir, l, o.reach, o.signal)))
    )
      .flat()
      .sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
    for (const candidate of found) {
      if (o.signal?.aborted) break;
      const path = toPosix(candidate.path);
      const leftOut = (fate: RuleFate) => {
        const d = accountDiagnostic({ path, source: format.source, layer: "project", fate });
        if (d) diagnostics.push(d);
      };
      if (candidate.refused) {
        leftOut(candidate.refused);
        continue;
      }
      const text = await readRepoCapped(candidate.path, { reach: o.reach, maxBytes: o.maxBytes });
      if (!text.ok) {
        const reason = text.diagnostics[0]?.message ?? text.reason;
        leftOut(
          text.reason === "refused"
            ? { status: "refused", reason: reason.replace(/^not read: /, "") }
            : { status: "unreadable", reason },
        );
        continue;
      }
      const one = toRule(candidate, format, "project", text.text, path);
      pushAll(diagnostics, one.diagnostics);
      if (one.disabled !== undefined) {
        disabled.push({ path, reason: one.disabled });
        continue;
      }
      const content =
        text.omitted > 0
          ? withCutMarker(one.rule.content, text.omitted, o.maxBytes)
          : one.rule.content;
      rules.push({ ...one.rule, content });
    }
  }
  // Files an agent does not use: one info per folder (see disabledDiagnostics).
  pushAll(diagnostics, disabledDiagnostics(disabled).values());
  return { rules, diagnostics };
}

/** Most folders below cwd that {@link findRulesBelowCwd} lists. */
export const MAX_BELOW_CWD_FOLDERS = 2000;
/** Deepest folder below cwd that {@link findRulesBelowCwd} lists. */
export const MAX_BELOW_CWD_DEPTH = 12;
/** Most entries of one folder that {@link findRulesBelowCwd} lists; a larger folder is not entered. */
const MAX_BELOW_CWD_ENTRIES = 10_000;
/** Most entries {@link findRulesBelowCwd} lists in all: 2,000 full folders would be 20 million. */
const MAX_BELOW_CWD_ENTRIES_TOTAL = 100_000;
/**
 * Most rule files {@link findRulesBelowCwd} gives: each found is checked
 * (lstat, real path), 100,000 of them 12 s; a project has some dozens.
 */
export const MAX_BELOW_CWD_FILES = 2000;

/** A rule file in a folder below cwd: it comes on touch of a path in `folder`. */
export interface RuleBelowCwd {
  path: string;
  source: RuleFormat["source"];
  /** The folder a touched path must be in (forward slashes). */
  folder: string;
}

/**
 * The rule files of `formats` in the folders below cwd, found by name and
 * not read: what `explain` names as coming on touch. A bounded walk (at most
 * {@link MAX_BELOW_CWD_FOLDERS} folders looked at and 100,000 entries listed, rule folders included,
 * {@link MAX_BELOW_CWD_FILES} rule files found, {@link MAX_BELOW_CWD_DEPTH}
 * deep, breadth first in name order) that never enters `.git`, `node_modules`, a hidden folder,
 * a link or a folder git ignores (on touch, those give nothing either).
 * `cut` is true when it stopped at a cap, or at `signal`.
 */
export async function findRulesBelowCwd(
  cwd: string,
  formats: readonly RuleFormat[],
  o: { reach: Reach; ignored: (path: string) => Promise<unknown>; signal?: AbortSignal },
): Promise<{ files: RuleBelowCwd[]; cut: boolean }> {
  const files: RuleBelowCwd[] = [];
  if (formats.length === 0) return { files, cut: false };
  let cut = false;
  let seen = 0;
  // The walk's listings and the rule folders' (one tree linked from every folder is listed for each) in one total.
  const listed: ListingBudget = { left: MAX_BELOW_CWD_ENTRIES_TOTAL };
  const walking = walkFolders<undefined>(cwd, undefined, {
    signal: o.signal,
    order: "breadth-first",
    maxEntries: MAX_BELOW_CWD_ENTRIES,
    total: listed,
    maxDepth: MAX_BELOW_CWD_DEPTH - 1,
    // An unreadable folder is not entered; on touch it gives nothing either.
    onCapped: () => {
      cut = true;
    },
    onTooDeep: () => {
      cut = true;
    },
    async *visit(folder) {
      for (const e of folder.entries) {
        if (!e.isDirectory() || e.name.startsWith(".") || e.name === "node_modules") continue;
        // Each folder looked at counts, listed or not: a folder of 10,000 folders is a cut too.
        if (seen >= MAX_BELOW_CWD_FOLDERS) {
          folder.stop();
          return;
        }
        seen++;
        const sub = join(folder.path, e.name);
        // Each folder's ignore check runs every pattern of the walk (a few ms each for 2,000 long ones).
        await checkpoint(o.signal);
        if (await o.ignored(sub)) continue;
        yield { name: e.name, state: undefined };
        for (const format of formats) {
          for (const location of format.locations) {
            for (const c of await findRuleFiles(sub, location, o.reach, o.signal, listed)) {
              files.push({ path: toPosix(c.path), source: format.source, folder: toPosix(sub) });
            }
            if (listed.left <= 0 || files.length >= MAX_BELOW_CWD_FILES) {
              folder.stop();
              return;
            }
          }
        }
      }
    },
  });
  try {
    const walked = await walking;
    return { files, cut: cut || walked.stopped !== undefined };
  } catch (error) {
    // Stopped by `signal`: what was found so far, as a cut.
    if (o.signal?.aborted !== true) throw error;
    return { files, cut: true };
  }
}
