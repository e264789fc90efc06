/**
 * The instructions one finished tool call of another agent brings in: the
 * same on-touch loading as inside pi (`loadContextForPaths`, through the
 * prompt session's `sessionContextFor`), with the options `sysprompt export
 * --agent NAME` renders with (the config files, the agent's preset: its
 * rule sources left out, and the nested context files it loads itself).
 */
import { resolve } from "node:path";
import { expandHome } from "../_paths.js";
import { applyPreset } from "../agents/apply.js";
import { loadPreset } from "../agents/load.js";
import { applyConfigFiles } from "../config/apply.js";
import {
  type ContextForOptions,
  loadContextForPaths,
  type TouchedContext,
} from "../gather/context/on-touch.js";
import type { Rule } from "../gather/rules/types.js";
import { normalizeOptions, type SystemPromptOptions } from "../options.js";
import { touchOptions } from "../session/touch.js";
import { patchPaths } from "../touch/patch-paths.js";
import { shellPaths } from "../touch/shell-paths.js";
import type { Diagnostic } from "../types.js";
import type { NamedPaths, ToolAgent } from "./input.js";

/** Where the hook runs: the environment and home folder of the agent that ran it. */
export interface HookWhere {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** The clock, for the snapshot's age. Default: `Date.now`. */
  now?: () => number;
}

/**
 * The absolute paths `named` touched, for a call in `cwd`: its file
 * arguments as written (`~` expanded, relative ones against cwd), the paths
 * its shell command names that exist (relative ones too, against its
 * working folder; nothing is evaluated), and the files its patch names.
 */
export async function touchedPaths(
  named: NamedPaths,
  cwd: string,
  home: string,
): Promise<string[]> {
  const at = (p: string, dir = cwd) => resolve(dir, expandHome(p, home));
  const out = named.files.map((p) => at(p));
  if (named.shell) {
    const dir = named.shell.workdir === undefined ? cwd : at(named.shell.workdir);
    out.push(...(await shellPaths(named.shell.command, dir, home, { relative: true })));
  }
  if (named.patch !== undefined) out.push(...patchPaths(named.patch).map((p) => at(p)));
  return [...new Set(out)];
}

/**
 * What a call found out about its session's project, for the calls after
 * it: the loading options without the rules' text. A later call loads with
 * these first, reading nothing but the folders on its paths; only when that
 * finds something to give does it load config, preset and rules afresh.
 */
export interface HookSnapshot {
  /** When it was taken (ms since the epoch); it is used for {@link SNAPSHOT_MS}. */
  at: number;
  cwd: string;
  options: SnapshotOptions;
}

type SnapshotOptions = Omit<
  ContextForOptions,
  "cwd" | "home" | "delivered" | "wrappers" | "rules"
> & {
  rules: Omit<Rule, "content" | "description">[];
};

/**
 * How long a snapshot answers "nothing new" for its session: a rule file
 * added, or a config changed, is seen by the next call after this.
 */
export const SNAPSHOT_MS = 120_000;

/**
 * The files `paths` bring in for `agent` in a project at `cwd`, each once
 * per `delivered` set (which this adds to), with the snapshot of the
 * options used. A bad config or preset value is a diagnostic, as in a
 * render; a cwd that does not exist throws.
 */
export async function hookContext(
  agent: ToolAgent,
  paths: readonly string[],
  cwd: string,
  delivered: Set<string>,
  where: Omit<HookWhere, "now"> & { now: number },
): Promise<{ touched: TouchedContext; snapshot: HookSnapshot }> {
  const given: SystemPromptOptions = {
    cwd,
    agent,
    configFiles: true,
    env: where.env,
    home: where.home,
  };
  const config = await applyConfigFiles(given);
  const opts = await normalizeOptions(config.options);
  const loaded = await loadPreset(agent, opts, { required: false });
  const applied = applyPreset(opts, config.options, loaded.preset);
  const options: SystemPromptOptions = { ...config.options, ruleSources: applied.opts.ruleSources };
  const loading = await touchOptions(
    options,
    new Map(),
    { delivered, overrides: {}, wrappers: undefined },
    {
      contextFiles: config.options.noContextFiles !== true,
      agentLoads: { agent, names: loaded.preset.nestedContextFiles },
    },
  );
  const touched = await loadContextForPaths(paths, loading);
  const { cwd: _c, home: _h, delivered: _d, wrappers: _w, rules = [], ...kept } = loading;
  const snapshot: HookSnapshot = {
    at: where.now,
    cwd,
    options: {
      ...kept,
      rules: rules
        .filter((r) => r.activation === "glob")
        .map(({ content: _t, description: _s, ...r }) => r),
    },
  };
  const problems: Diagnostic[] = [...config.diagnostics, ...loaded.diagnostics];
  return {
    touched: { files: touched.files, diagnostics: [...problems, ...touched.diagnostics] },
    snapshot,
  };
}

/**
 * Whether `paths` may bring anything in that `delivered` lacks, by the
 * session's snapshot: the same loading, on a copy of the set, with the
 * rules' text left out. False only when it finds nothing to give and
 * nothing to say; `delivered` is not changed.
 */
export async function mayBringSomething(
  paths: readonly string[],
  snapshot: HookSnapshot,
  delivered: ReadonlySet<string>,
  home: string,
): Promise<boolean> {
  const probe = await loadContextForPaths(paths, {
    ...snapshot.options,
    rules: snapshot.options.rules.map((r) => ({ ...r, content: "" })),
    cwd: snapshot.cwd,
    home,
    delivered: new Set(delivered),
  });
  return probe.files.length > 0 || probe.diagnostics.some((d) => d.level !== "info");
}

/** `value` as a snapshot for a call in `cwd` at `now`, or undefined: missing, stale, another cwd, or not one. */
export function usableSnapshot(value: unknown, cwd: string, now: number): HookSnapshot | undefined {
  if (!isRecord(value) || value.cwd !== cwd || typeof value.at !== "number") return undefined;
  if (!(now >= value.at && now - value.at < SNAPSHOT_MS)) return undefined;
  const o = value.options;
  if (!isRecord(o) || !Array.isArray(o.rules) || !o.rules.every(isSnapshotRule)) return undefined;
  const typed: [string, string][] = [
    ["maxBytes", "number"],
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
  return value as unknown as HookSnapshot;
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
