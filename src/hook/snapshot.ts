/**
 * What a hook call found out about its session's project, kept in the
 * session's file for the calls after it, and the check that a kept value
 * is one. Light on purpose: the hook's first module (no loader, no rules).
 */
import type { ContextForOptions } from "../gather/context/index.js";
import type { Rule } from "../gather/rules/index.js";

/**
 * The loading options without the rules' text. A later call loads with
 * these first, reading nothing but the folders on its paths; only when that
 * finds something to give does it load config, preset and rules afresh.
 */
export interface HookSnapshot {
  /** When it was taken (ms since the epoch); it is used for {@link SNAPSHOT_MS}. */
  at: number;
  cwd: string;
  options: SnapshotOptions;
  /** What lets a call answer "nothing new" from file stamps alone (see `fast.ts`). */
  memo?: HookMemo;
}

export type SnapshotOptions = Omit<
  ContextForOptions,
  "cwd" | "home" | "delivered" | "wrappers" | "rules"
> & {
  rules: Omit<Rule, "content" | "description">[];
};

/**
 * The project as the snapshot's loading saw it, stamped: a call whose paths
 * lead only through folders stamped empty (or given already) and that no
 * untried glob rule can match has nothing to add.
 */
export interface HookMemo {
  realRoot: string;
  realCwd: string;
  /** Files whose change may change what is given (the project root, cwd's `.gemini/settings.json`): path → stamp. */
  watch: Record<string, string>;
  /** Folders (real paths) searched and found holding no context file: path → stamp when searched. */
  empty: Record<string, string>;
  /** The snapshot's glob rules: key, real folder, and the test of `globSuffixes` (none: any path may match). */
  rules: { key: string; base: string; suffixes?: string[] }[];
  /** Files (real paths) every rule of the snapshot was tried on, newest last. */
  checked: string[];
}

/**
 * How long a snapshot answers "nothing new" for its session: a rule file
 * added, or a config changed, is seen by the next call after this.
 */
export const SNAPSHOT_MS = 120_000;

/**
 * `value` as a snapshot for a call in `cwd` at `now` with the hook command line's `trusted`, or
 * undefined: missing, stale, another cwd, taken with the other trust (a session whose hooks run
 * both `hook AGENT` and `hook AGENT --untrusted`: review rev107a F1), or not one.
 */
export function usableSnapshot(
  value: unknown,
  cwd: string,
  now: number,
  trusted = true,
): HookSnapshot | undefined {
  if (!isRecord(value) || value.cwd !== cwd || typeof value.at !== "number") return undefined;
  if (!(now >= value.at && now - value.at < SNAPSHOT_MS)) return undefined;
  const o = value.options;
  if (!isRecord(o) || !Array.isArray(o.rules) || !o.rules.every(isSnapshotRule)) return undefined;
  if ((o.projectTrusted !== false) !== trusted) return undefined;
  const typed: [string, string][] = [
    ["maxBytes", "number"],
    ["deadlineMs", "number"],
    ["maxTotalBytes", "number"],
    ["projectTrusted", "boolean"],
    ["contextFiles", "boolean"],
    ["projectDir", "string"],
    ["ceilingDir", "string"],
  ];
  if (typed.some(([k, t]) => o[k] !== undefined && typeof o[k] !== t)) return undefined;
  const loads = o.agentLoads;
  if (
    loads !== undefined &&
    !(isRecord(loads) && typeof loads.agent === "string" && isStrings(loads.names))
  ) {
    return undefined;
  }
  const { memo, ...rest } = value;
  const snapshot = rest as unknown as HookSnapshot;
  return isMemo(memo) ? { ...snapshot, memo } : snapshot;
}

function isMemo(m: unknown): m is HookMemo {
  return (
    isRecord(m) &&
    typeof m.realRoot === "string" &&
    typeof m.realCwd === "string" &&
    isStamps(m.watch) &&
    isStamps(m.empty) &&
    Array.isArray(m.rules) &&
    m.rules.every(
      (r) =>
        isRecord(r) &&
        typeof r.key === "string" &&
        typeof r.base === "string" &&
        (r.suffixes === undefined || isStrings(r.suffixes)),
    ) &&
    isStrings(m.checked)
  );
}

function isStamps(v: unknown): v is Record<string, string> {
  return isRecord(v) && Object.values(v).every((x) => typeof x === "string");
}

function isSnapshotRule(r: unknown): boolean {
  return (
    isRecord(r) &&
    typeof r.path === "string" &&
    typeof r.name === "string" &&
    r.activation === "glob" &&
    isStrings(r.globs) &&
    typeof r.source === "string" &&
    (r.layer === "user" || r.layer === "project")
  );
}

function isStrings(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
