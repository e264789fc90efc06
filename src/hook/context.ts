/**
 * The instructions one finished tool call of another agent brings in: the
 * same on-touch loading as inside pi (`loadContextForPaths`, through the
 * prompt session's `sessionContextFor`), with the options `sysprompt export
 * --agent NAME` renders with (the config files, the agent's preset: its
 * rule sources left out, and the nested context files it loads itself).
 */
import { applyPreset } from "../agents/apply.js";
import { loadPreset } from "../agents/load.js";
import { applyConfigFiles } from "../config/apply.js";
import { projectVarNames } from "../config/index.js";
import {
  loadContextForPaths,
  loadContextForPathsSince,
  type TouchedContext,
} from "../gather/context/index.js";
import { deadlineSignal } from "../gather/deadline.js";
import { normalizeOptions } from "../options/normalize.js";
import type { SystemPromptOptions } from "../options.js";
import { agentDirLeftOut } from "../repo-files/index.js";
import { touchOptions } from "../session/touch.js";
import type { Diagnostic } from "../types.js";
import { hookDeadline } from "./deadline.js";
import { readExportNames } from "./export-names.js";
import type { ToolAgent } from "./input.js";
import { hookTextCap } from "./reply.js";
import type { HookSnapshot } from "./snapshot.js";

/** Where the hook runs: the environment and home folder of the agent that ran it. */
export interface HookWhere {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** The clock, for the snapshot's age. Default: `Date.now`. */
  now?: () => number;
  /**
   * The hook command line's trust in the project (`sysprompt hook AGENT --untrusted`: false), as
   * a render's is its own flag's: untrusted, no project layer, config or `.pi` rules, and the
   * door's private-path rules on its files' imports (review rev107a F1). Default: trusted.
   */
  trusted?: boolean;
}

/**
 * The loading `paths` are looked up with for `agent` in a project at `cwd`
 * (config files, preset, rules), as a pass that gives the files each
 * `delivered` set lacks (and adds them to it), with the snapshot of the
 * options used. A bad config or preset value is a diagnostic, as in a
 * render; a cwd that does not exist throws. The text is held to what the
 * agent keeps of it after `tool`'s result ({@link hookTextCap}; `distills`:
 * Gemini CLI's settings turn its context management on).
 */
export async function hookLoading(
  agent: ToolAgent,
  cwd: string,
  where: Omit<HookWhere, "now"> & { now: number },
  tool = "",
  distills = false,
): Promise<{
  pass: (paths: readonly string[], delivered: Set<string>) => Promise<TouchedContext>;
  /**
   * The pass of your own glob rules alone (no context file, no repository's rule): what a call
   * past the hook's budget still sends (`HookProgress`). `delivered` is read, never changed.
   */
  ownPass: (paths: readonly string[], delivered: ReadonlySet<string>) => Promise<TouchedContext>;
  snapshot: HookSnapshot;
  /** The rules were not all found in time: the snapshot is not one to answer later calls from. */
  partial: boolean;
}> {
  // One deadline for the whole call, as in a session's contextFor: the passes get what the rule trace left.
  const started = performance.now();
  const given: SystemPromptOptions = {
    cwd,
    agent,
    configFiles: true,
    env: where.env,
    home: where.home,
    // The command line's trust, never a default the project could change (rev107a F1).
    ...(where.trusted === false ? { projectTrusted: false } : {}),
  };
  const config = await applyConfigFiles(given);
  const opts = await normalizeOptions(config.options);
  // Your sysprompt.yaml's deadline (a project's file sets none) bounds the call, never past the hook's own.
  const deadlineMs = hookDeadline(config.options.deadlineMs);
  // The preset's project root too: from a cwd 1,900 folders deep it held every call (rev60b F1).
  const signal = deadlineSignal(deadlineMs);
  const loaded = await loadPreset(
    agent,
    { ...opts, ...(signal ? { signal } : {}) },
    { required: false },
  );
  const applied = applyPreset(opts, config.options, loaded.preset);
  const options: SystemPromptOptions = {
    ...config.options,
    ruleSources: applied.opts.ruleSources,
    deadlineMs,
  };
  const exported = readExportNames(agent, where);
  const { loading, diagnostics: tracing } = await touchOptions(
    options,
    new Map(),
    { delivered: new Set(), overrides: {}, wrappers: undefined },
    {
      contextFiles: config.options.noContextFiles !== true,
      agentLoads: { agent, names: loaded.preset.nestedContextFiles },
      repositoryVars: projectVarNames(config.provenance),
      exportNames: [...exported.own, ...exported.project],
    },
  );
  const { cwd: _c, home: _h, delivered: _d, wrappers: _w, rules = [], ...kept } = loading;
  const snapshot: HookSnapshot = {
    at: where.now,
    cwd,
    options: {
      ...kept,
      deadlineMs,
      rules: rules
        .filter((r) => r.activation === "glob")
        .map(({ content: _t, description: _s, ...r }) => r),
    },
  };
  // Your user layer left out (the untrusted project holds the agent dir) is said, as a render says it (rev109e F2).
  const leftOut = agentDirLeftOut(opts);
  const problems: Diagnostic[] = [
    ...(leftOut ? [leftOut] : []),
    ...config.diagnostics,
    ...loaded.diagnostics,
    ...tracing,
  ];
  const pass = async (paths: readonly string[], delivered: Set<string>) => {
    const touched = await loadContextForPathsSince(
      paths,
      { ...loading, delivered, deadlineMs, textCap: hookTextCap(agent, tool, distills) },
      started,
    );
    return { files: touched.files, diagnostics: [...problems, ...touched.diagnostics] };
  };
  const own = rules.filter((r) => r.layer === "user" && r.activation === "glob");
  const ownPass = (paths: readonly string[], delivered: ReadonlySet<string>) =>
    loadContextForPathsSince(
      paths,
      {
        ...loading,
        rules: own,
        contextFiles: false,
        ruleSources: [],
        delivered: new Set(delivered),
        deadlineMs,
        textCap: hookTextCap(agent, tool, distills),
      },
      started,
    );
  // A rule file refused (rev79h F5) is said, but the rules were all found: the snapshot stands.
  return { pass, ownPass, snapshot, partial: tracing.some((d) => d.code === "touch-deadline") };
}

/**
 * Whether `paths` may bring anything in that `probed` lacks, by the
 * session's snapshot: the same loading, with the rules' text left out.
 * False only when it finds nothing to give and nothing to say. `probed`
 * (the caller's copy of what was given) gets the keys of what it found,
 * given or refused.
 */
export async function mayBringSomething(
  paths: readonly string[],
  snapshot: HookSnapshot,
  probed: Set<string>,
  home: string,
): Promise<boolean> {
  const probe = await loadContextForPaths(paths, {
    ...snapshot.options,
    rules: snapshot.options.rules.map((r) => ({ ...r, content: "" })),
    deadlineMs: hookDeadline(snapshot.options.deadlineMs),
    cwd: snapshot.cwd,
    home,
    delivered: probed,
  });
  return probe.files.length > 0 || probe.diagnostics.some((d) => d.level !== "info");
}
