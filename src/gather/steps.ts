import { join } from "node:path";
import { cacheLocation } from "../_cache-location.js";
import { readTextFile } from "../_fs.js";
import { primeBuiltinCache } from "../locate/builtin-cache.js";
import { envAgentDir } from "../locate/layers.js";
import { emptyLayer, loadLayer } from "../locate/load-layer.js";
import { agentDirLeftOut } from "../repo-files/index.js";
import type { Skill } from "../skills/index.js";
import { loadSkills } from "../skills/index.js";
import type { Diagnostic } from "../types.js";
import { type ContextTrace, NO_CONTEXT, traceContextFiles } from "./context/context-files.js";
import { nestedContextNames } from "./context/on-touch.js";
import { type Gathered, type GatherStep, lifted } from "./deadline.js";
import {
  agentDirUnread,
  envCacheLocation,
  environmentStep,
  realMachine,
} from "./environment/index.js";
import { gitStep } from "./git/index.js";
import { parseRuleList } from "./guidelines/guidelines.js";
import { parseToolDescriptions, selectSkillsTool } from "./guidelines/tools.js";
import type { GatherInputs, GatherOptions } from "./inputs.js";
import { type OwnFirstGate, ownFirstGate } from "./own-first.js";
import { type LoadedRules, type Rule, type RuleAccount, traceRules } from "./rules/index.js";
import { tableStep } from "./step-table.js";
import {
  type BuiltWorkspace,
  buildWorkspaceTrees,
  workspaceDiagnostics,
} from "./tree/workspace.js";

/**
 * The render's gathering steps, by name: a new step is one more entry here,
 * read by the same name in the hub. Key order is the order of the timings.
 * Each step's value is its loader's result; its diagnostics are lifted into
 * the step's outcome, which is the only place the hub reads them.
 * `signal` stops late walks (the tree, the layer folders, the skills
 * folders, the context files) once the deadline has been met without them.
 */

export function gatheringSteps(
  inputs: GatherInputs,
  signal: AbortSignal,
  ownFirst: OwnFirstGate = ownFirstGate(signal),
) {
  const { opts } = inputs;
  const { cwd, home, env, agentDir, projectDir, builtinDir, trusted, roots, ceilingDir } = opts;
  const maxBytes = opts.maxContextBytes;
  // Cache files go to the agent dir the user named, else to the user's cache folder.
  const named = (opts.agentDirGiven || envAgentDir(env) !== undefined) && !agentDirUnread(agentDir);
  const cacheHome = { agentDir: named ? agentDir : undefined, env, home };
  const ceiling = ceilingDir !== null ? { ceilingDir } : {};
  const layerFiles = { customFiles: true, resolved: opts.resolvedFiles };
  const confine = { start: cwd, home, ceiling: ceilingDir ?? undefined };
  // The user's rule files are read first and kept here as they are: a render
  // that gives up on a repository's slow rule files keeps the user's.
  const rulesSoFar: { rules: Rule[]; accounts: RuleAccount[] } = { rules: [], accounts: [] };
  // The same for context files: the agent dir's is read first, before the repository's folders.
  const contextSoFar: { value?: ContextTrace } = {};
  // And for skills: the user's own folders are read first.
  const skillsSoFar: { value?: { skills: Skill[]; diagnostics: Diagnostic[] } } = {};
  // Every part of a step that reads the repository (the context files of its folders, its rule
  // files, skills, layer, git and tree) waits at one gate until each step's own part is read
  // (your AGENTS.md, rule folders and skill folders, each in its `soFar`), or 250 ms pass with
  // no file-system call answered (a hung disk of yours).
  // Started with them, a project's 300 partials of 20 KB kept your AGENTS.md from being read at
  // a 400 ms deadline (rev46b), its 300 sections of dense frontmatter and then its 60
  // `.cursor/rules/*.mdc` of dense frontmatter (60 ms of parsing each, a turn of the event loop
  // between two) left the skills step one turn a file, and your skills were out of the prompt at
  // any deadline (rev48a F1, rev49b F2). The render's gate opens at half its budget at the
  // latest, so your part cannot take the repository's whole budget (rev51a F3).
  const { yoursFirst, gate } = ownFirst;
  const afterOwnParts = <T>(step: GatherStep<T>): GatherStep<T> => {
    const run = step.run;
    if (!run) return step;
    return {
      ...step,
      run: async () => {
        await gate();
        return run();
      },
    };
  };
  const context = keyed(
    "context",
    {
      cwd,
      agentDir,
      roots,
      home,
      maxBytes,
      projectTrusted: trusted,
      ...ceiling,
      ...(inputs.agentLoads ? { agentLoads: inputs.agentLoads } : {}),
    },
    !opts.noContextFiles &&
      (async (i) =>
        lifted(
          await yoursFirst(
            (own) =>
              traceContextFiles({
                ...i,
                signal,
                soFar: contextSoFar,
                beforeProject: own.thenProject,
              }),
            "your context files",
          ),
        )),
    { files: [], diagnostics: [], provenance: NO_CONTEXT } as ContextTrace,
  );
  const ruleFiles = keyed(
    "rule-files",
    {
      cwd,
      agentDir,
      home,
      projectDir: opts.projectDirName,
      projectTrusted: trusted,
      sources: opts.ruleSources,
      maxBytes,
      ...ceiling,
    },
    opts.ruleSources.length > 0 &&
      (async (i) =>
        lifted(
          await yoursFirst(
            (own) =>
              traceRules({ ...i, signal, soFar: rulesSoFar, beforeProject: own.thenProject }),
            "your rule files",
          ),
        )),
    { rules: [], accounts: [], diagnostics: [] } as LoadedRules,
  );
  const skills = keyed(
    "skills",
    {
      cwd,
      agentDir,
      home,
      projectTrusted: trusted,
      projectDir: opts.projectDirName,
      ...(opts.skillPaths ? { paths: [...opts.skillPaths] } : {}),
      ...ceiling,
    },
    // Skills the caller loaded itself are the fallback of a step that does not run.
    selectSkillsTool(opts.tools) !== null &&
      !opts.skills &&
      (async (i) =>
        lifted(
          await yoursFirst(
            (own) =>
              loadSkills({ ...i, signal, soFar: skillsSoFar, beforeProject: own.thenProject }),
            "your skills",
          ),
        )),
    { skills: opts.skills ?? ([] as Skill[]), diagnostics: [] as Diagnostic[] },
  );
  return {
    // Not bounded: without the builtin templates there is no prompt at all, and
    // they sit beside the code that is already running.
    builtin: tableStep(
      keyed("builtin", builtinDir, loadBuiltin, {
        layer: emptyLayer("builtin"),
        tools: {},
        rules: [],
      }),
      { bounded: false },
    ),
    user: tableStep(
      keyed(
        "user",
        { dir: agentDir, ...layerFiles, own: { home, trusted, cwd } },
        async (i) => {
          const loaded = lifted(await loadLayer(i.dir, "user", { ...i, signal }));
          const ignored = agentDirLeftOut(opts);
          return ignored ? { ...loaded, diagnostics: [ignored, ...loaded.diagnostics] } : loaded;
        },
        emptyLayer("user"),
      ),
    ),
    project: tableStep(
      afterOwnParts(
        keyed(
          "project",
          { dir: projectDir, ...layerFiles, confine },
          trusted && (async (i) => lifted(await loadLayer(i.dir, "project", { ...i, signal }))),
          emptyLayer("project"),
        ),
      ),
    ),
    context: tableStep({
      ...context,
      partial: () => lifted(contextSoFar.value ?? context.fallback),
    }),
    "rule-files": tableStep({
      ...ruleFiles,
      partial: () =>
        lifted({
          rules: [...rulesSoFar.rules],
          accounts: [...rulesSoFar.accounts],
          diagnostics: [],
        }),
    }),
    skills: tableStep({
      ...skills,
      partial: () => lifted(skillsSoFar.value ?? skills.fallback),
    }),
    environment: tableStep(
      environmentStep({
        machine: opts.machine ?? realMachine(),
        env,
        cache: envCacheLocation(cacheHome),
        exclude: [cwd, ...roots],
        home,
        given: opts.environment ?? undefined,
        signal,
      }),
    ),
    git: tableStep(
      afterOwnParts(
        gitStep({
          enabled: opts.git,
          cwd,
          env,
          exclude: [cwd, ...roots],
          home,
          allowGitDirs: opts.allowGitDirs,
          ...ceiling,
          signal,
        }),
      ),
    ),
    tree: tableStep(
      afterOwnParts(
        keyed(
          "tree",
          {
            root: cwd,
            roots,
            mtime: opts.treeMtime,
            depth: opts.treeDepth,
            ceilingDir,
            cache: cacheLocation("tree", cacheHome),
            home,
            trusted,
            agentLoads: inputs.nestedContextFiles,
          },
          opts.workspaceTree && ((i) => loadTree(i, signal)),
          null as BuiltWorkspace | null,
        ),
      ),
      // See gather/tree/_tree-walk.ts: the walk is long and mostly synchronous.
      { afterOthers: true },
    ),
  };
}

/**
 * A gathering step whose work is `load(inputs)`, or that is off (`false`).
 * `inputs` must hold everything the work depends on besides the disk: a
 * prompt session reuses the step's value while they, and every file and
 * folder the work read, are unchanged.
 */
function keyed<I, T>(
  name: string,
  inputs: I,
  load: ((inputs: I) => Promise<Gathered<T>>) | false,
  fallback: T,
): GatherStep<T> {
  return load
    ? { name, run: () => load(inputs), fallback, inputs }
    : { name, run: undefined, fallback };
}

async function loadBuiltin(dir: string) {
  primeBuiltinCache();
  const [layer, tools, rules] = await Promise.all([
    loadLayer(dir, "builtin", { customFiles: false }),
    readTextFile(join(dir, "tools.md")),
    readTextFile(join(dir, "rules.md")),
  ]);
  const value = {
    layer,
    tools: tools.ok ? parseToolDescriptions(tools.text) : {},
    rules: rules.ok ? parseRuleList(rules.text) : [],
  };
  return { value, diagnostics: layer.diagnostics };
}

interface TreeInputs {
  root: string;
  roots: readonly string[];
  mtime: GatherOptions["treeMtime"];
  depth: number | null;
  ceilingDir: string | null;
  cache: ReturnType<typeof cacheLocation>;
  home: string;
  trusted: boolean;
  agentLoads: readonly string[];
}

/** The working directory's tree and the extra roots', with what the walk has to say about them. */
async function loadTree(
  i: TreeInputs,
  signal: AbortSignal,
): Promise<Gathered<BuiltWorkspace | null>> {
  const ceiling = i.ceilingDir !== null ? { ceilingDir: i.ceilingDir } : {};
  const built = await buildWorkspaceTrees(i.root, i.roots, {
    signal,
    cache: i.cache,
    ...(i.depth !== null ? { maxDepth: i.depth } : {}),
    ...(i.mtime ? { mtime: i.mtime } : {}),
    ...ceiling,
    // The names on-touch delivery looks for: dir_context names the same files.
    // Those the settings set hold in the working folder's project only (rev101a F1).
    ...(await nestedContextNames(i.root, {
      home: i.home,
      trusted: i.trusted,
      ...ceiling,
    })),
    agentLoads: i.agentLoads,
    // Untrusted, a nested context file's link to a private file is not listed either (rev66a F2).
    projectTrusted: i.trusted,
    // Your global git excludes, found as the door finds them (process.env, the render's home).
    home: i.home,
  });
  return { value: built, diagnostics: workspaceDiagnostics(built, i.root) };
}
