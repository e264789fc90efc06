import { join, posix, resolve } from "node:path";
import { pushAll } from "../../_arrays.js";
import { normalizeText } from "../../_frontmatter.js";
import { lstat } from "../../_io.js";
import { nextTurn } from "../../_pace.js";
import { ancestorsOf, expandHome, homeFolder, isWithin, toPosix } from "../../_paths.js";
import { DEFAULT_PROJECT_DIR, resolveAgentDir } from "../../locate/layers.js";
import {
  capChain,
  chainCutDiagnostic,
  chainFolders,
  checkMaxBytes,
  type OwnFiles,
  ownFilesOf,
  ownFolderInProject,
  ownFolderInProjectDiagnostic,
  type PrivateVerdict,
  privatePaths,
  projectReach,
  type Reach,
  type RefusedRootMarker,
  readRepoCapped,
  rootMarkerRefusedDiagnostics,
  withCutMarker,
} from "../../repo-files/index.js";
import { type Diagnostic, SyspromptError } from "../../types.js";
import { NESTED_CONTEXT_NAMES } from "../context-names.js";
import { boundedByDefault } from "../deadline.js";
import { realWorkingFolder } from "../roots.js";
import { readRuleDocument } from "./_fields.js";
import { accountDiagnostic, disabledDiagnostics } from "./account.js";
import { dedupeRules, type StatedText } from "./dedupe.js";
import { findRuleFiles, type RuleCandidate } from "./discover.js";
import {
  DEFAULT_RULE_SOURCES,
  formatWanted,
  GEMINI_DIR_FILE,
  RULE_FORMATS,
  type RuleFormat,
  ruleName,
} from "./formats.js";
import { geminiContextNames, settingsNamedHidden, settingsNamedWords } from "./gemini-settings.js";
import { globDiagnostics } from "./globs.js";
import { ruleSourcesProblem } from "./rule-sources.js";
import type { LoadedRules, Rule, RuleAccount, RuleFate } from "./types.js";

/**
 * Total bytes of rule files read for one render. Rules of other agents are
 * text the project controls, like its context files, so they get a budget of
 * their own beside each file's cap; files past it are named, not read.
 */
export const DEFAULT_MAX_RULES_TOTAL_BYTES = 1024 * 1024;

/**
 * Most rule files read for one render, wherever they are: the per-folder cap
 * bounds one folder, but cwd can be 100 folders deep, each with its rules
 * folders (20,000 one-byte files passed the byte budget and took 10 s).
 */
export const MAX_RULE_FILES_TOTAL = 1000;

/** Files left out for one reason that get a warning each; the rest are counted in one more. */
export const MAX_OVER_CAP_NAMED = 20;

export interface LoadRulesOptions {
  /** Working directory; rules are read in every folder from its project root down to it. */
  cwd: string;
  /** Home folder (other agents' user-level folders, `~`). Default: `os.homedir()`. */
  home?: string;
  /** User layer folder, whose `rules/*.md` are the user's own rules. Default: `$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent`. */
  agentDir?: string;
  /** Name of the project layer folder under cwd, whose `rules/*.md` need trust. Default: `".pi"`. */
  projectDir?: string;
  /** False: `.pi/rules` is not read; other agents' files still load, confined to the project root. Default: true. */
  projectTrusted?: boolean;
  /**
   * Which rule sources to read: format names (`cursor`, `windsurf`, `cline`,
   * `copilot`, `claude`, `gemini`, `kiro`, `roo`, `continue`, `zed`,
   * `sysprompt`) and `user:<format>` for another agent's user-level folder
   * (`user:claude` is `~/.claude/rules`). Default: every format at project
   * level and sysprompt's own folders, no other agent's user-level folder.
   */
  sources?: readonly string[];
  /** Cap of each rule file in bytes (cut with a marker line). Default: 256 KiB, as context files. */
  maxBytes?: number;
  /** Cap of all rule files read, in bytes. Default: {@link DEFAULT_MAX_RULES_TOTAL_BYTES}. */
  maxTotalBytes?: number;
  /** No folder above this one is searched (nor looked at for `.git`). Default: none: up to `/`. */
  ceilingDir?: string;
  /** For {@link loadRules}: texts already in the prompt (custom prompt, appended prompt, context files); always rules they contain are dropped. */
  stated?: readonly StatedText[];
  /**
   * Stops the work (the promise rejects with the signal's reason): a render
   * that gave up on it. Without one, a render's default deadline (5 s) stops
   * it: no rules, and a `load-deadline` warning.
   */
  signal?: AbortSignal;
  /**
   * Filled as the user's rule files are read (they are read before the
   * project's): what a render that gives up on the step still has.
   */
  soFar?: { rules: Rule[]; accounts: RuleAccount[] };
}

/** For a caller that runs loaders at once (a render's steps): when the project's part may start. */
interface YoursFirst {
  /** Awaited once the user's files are read, before any of the project's folders is looked at. */
  beforeProject?: () => Promise<void>;
}

/** Checks the `ruleSources` option: known names only. */
export function checkRuleSources(
  value: readonly string[] | undefined,
  what = "ruleSources",
): string[] {
  if (value === undefined) return [...DEFAULT_RULE_SOURCES];
  const problem = ruleSourcesProblem(value);
  if (problem !== undefined) throw new SyspromptError("bad-option", `${what}: ${problem}`);
  return [...new Set(value)];
}

/**
 * Reads the rule files of every agent format: always rules (to inline),
 * glob and model rules (to list), manual ones (to show in `explain` only).
 * Problems in files are diagnostics; a bad option throws a SyspromptError.
 */
export async function loadRules(
  options: LoadRulesOptions & YoursFirst,
): Promise<{ rules: Rule[]; diagnostics: Diagnostic[] }> {
  if (options.signal === undefined) {
    // Past the deadline, the user's own rules (read before the project's) are kept.
    const soFar = options.soFar ?? { rules: [], accounts: [] };
    return boundedByDefault(
      undefined,
      "rule files",
      (signal) => loadRules({ ...options, signal, soFar }),
      { soFar: () => rulesSoFar(soFar, options.stated ?? []) },
    );
  }
  const traced = await traceRules(options);
  const done = dedupeLoaded(traced, options.stated ?? []);
  return { rules: done.rules, diagnostics: [...traced.diagnostics, ...done.diagnostics] };
}

/**
 * {@link loadRules} before dedupe, with the account of every rule file
 * found. Dedupe is left to the caller ({@link dedupeLoaded}), which knows
 * every text the prompt states: done in two passes, a rule could be dropped
 * for a copy that a later pass drops in turn.
 */
export async function traceRules(options: LoadRulesOptions & YoursFirst): Promise<LoadedRules> {
  if (options.signal === undefined) {
    const soFar = options.soFar ?? { rules: [], accounts: [] };
    return boundedByDefault(
      undefined,
      "rule files",
      (signal) => traceRules({ ...options, signal, soFar }),
      {
        soFar: () => ({ rules: [...soFar.rules], accounts: [...soFar.accounts], diagnostics: [] }),
      },
    );
  }
  const home = options.home ?? homeFolder();
  // The project is found from cwd's real folder, as a render's (rev57a F3); a relative agent dir from cwd as given.
  const shownCwd = resolve(expandHome(options.cwd, home));
  const cwd = await realWorkingFolder(shownCwd, { signal: options.signal, home });
  const maxBytes = checkMaxBytes(options.maxBytes, "maxBytes");
  const maxTotal = checkMaxBytes(
    options.maxTotalBytes ?? DEFAULT_MAX_RULES_TOTAL_BYTES,
    "maxTotalBytes",
  );
  const sources = new Set(checkRuleSources(options.sources));
  const agentDir = resolveAgentDir({
    agentDir: options.agentDir,
    env: process.env,
    home,
    cwd: shownCwd,
  });
  const trusted = options.projectTrusted !== false;
  const ceiling =
    options.ceilingDir === undefined
      ? undefined
      : await realWorkingFolder(resolve(options.ceilingDir), {
          signal: options.signal,
          home,
          what: "ceilingDir",
        });
  const layerOf = (format: RuleFormat): Rule["layer"] =>
    format.scope === "project" || format.scope === "project-layer" ? "project" : "user";
  const diagnostics: Diagnostic[] = [];
  // Each file's account and rule, by the candidate found; the diagnostics of
  // reading and parsing come after those of the project's folders, as they
  // did when every file was read at once.
  type Entry = { candidate: RuleCandidate; format: RuleFormat };
  const done = new Map<
    Entry,
    { account?: RuleAccount; read?: { rule: Rule; account: RuleAccount } }
  >();
  const parseDiagnostics: Diagnostic[] = [];
  // Which files are read is decided from their sizes (known from stat), so the
  // total budget is deterministic. The user's files take their part of the
  // totals first, then the project's, each in prompt order.
  const seen = new Map<string, string>();
  let total = 0;
  let files = 0;
  function planOne({ candidate, format }: Entry) {
    const layer = layerOf(format);
    const base = { path: toPosix(candidate.path), source: format.source, layer };
    if (candidate.refused) return { base, fate: candidate.refused as RuleFate };
    if (candidate.disabled !== undefined) {
      return { base, fate: { status: "disabled", reason: candidate.disabled } as RuleFate };
    }
    const real = candidate.real ?? candidate.path;
    const first = seen.get(real);
    if (first !== undefined)
      return { base, fate: { status: "duplicate", sameAs: first } as RuleFate };
    seen.set(real, base.path);
    if (files >= MAX_RULE_FILES_TOTAL) {
      const reason = `more than ${MAX_RULE_FILES_TOTAL} rule files in the project's folders`;
      return { base, fate: { status: "over-cap", reason } as RuleFate };
    }
    files++;
    const size = Math.min(candidate.size ?? 0, maxBytes);
    if (total + size > maxTotal) {
      const reason = `the rule files read so far reach the ${maxTotal}-byte total`;
      return { base, fate: { status: "over-cap", reason } as RuleFate };
    }
    total += size;
    return { base, read: { candidate, format, real } };
  }
  /**
   * Plans, reads (at once) and parses one layer's files. Parsing is
   * synchronous and the repository sets how much there is (1,000 files of
   * flow-sequence frontmatter): the loop yields every slice and stops once
   * the render has given up on it. The user's files go to `soFar` as they are.
   */
  async function readLayer(
    entries: readonly Entry[],
    door: { reach: Reach } | { own: () => Promise<OwnFiles> },
  ): Promise<void> {
    const plan = entries.map((e) => ({ entry: e, ...planOne(e) }));
    // Your files (the user layer's): one whose real path lies in a checkout is read through that
    // checkout's door, as your layer's files are (review rev99a F3); placed only when one is read.
    const reading = plan.some((p) => p.read);
    const where = "reach" in door ? door : { own: reading ? await door.own() : undefined };
    const texts = await Promise.all(
      // Through the door, by the path found: it checks again, on the descriptor, what discovery saw.
      plan.map((p) =>
        p.read
          ? readRepoCapped(p.read.candidate.path, {
              ...where,
              named: p.read.candidate.location.named === true,
              maxBytes,
            })
          : undefined,
      ),
    );
    for (const [i, p] of plan.entries()) {
      const turn = nextTurn(options.signal);
      if (turn) await turn;
      const { base } = p;
      const slot: { account?: RuleAccount; read?: { rule: Rule; account: RuleAccount } } = {};
      done.set(p.entry, slot);
      const keep = (one: RuleAccount) => {
        slot.account = one;
        if (base.layer === "user") options.soFar?.accounts.push(one);
      };
      const text = texts[i];
      if (!p.read || !text) {
        if (p.fate) keep({ ...base, fate: p.fate });
        continue;
      }
      if (!text.ok) {
        const first = text.diagnostics[0];
        const reason = first?.message ?? text.reason;
        keep({
          ...base,
          fate:
            first?.code === "name-not-utf8"
              ? { status: "refused", reason, code: "name-not-utf8" }
              : text.reason === "refused"
                ? { status: "refused", reason: reason.replace(/^not read: /, "") }
                : { status: "unreadable", reason },
        });
        continue;
      }
      pushAll(
        parseDiagnostics,
        text.diagnostics.map((d) => ({ ...d, path: base.path })),
      );
      const one = toRule(p.read.candidate, p.read.format, base.layer, text.text, base.path);
      pushAll(parseDiagnostics, one.diagnostics);
      let content = one.rule.content;
      if (text.omitted > 0) content = withCutMarker(content, text.omitted, maxBytes);
      const rule = { ...one.rule, content };
      const account: RuleAccount = {
        ...base,
        activation: rule.activation,
        ...(text.omitted > 0 ? { cut: true } : {}),
        fate: one.disabled
          ? { status: "disabled", reason: one.disabled }
          : {
              status:
                rule.activation === "always"
                  ? "inlined"
                  : rule.activation === "manual"
                    ? "manual"
                    : "listed",
            },
      };
      keep(account);
      if (!one.disabled) {
        slot.read = { rule, account };
        if (base.layer === "user") options.soFar?.rules.push(rule);
      }
    }
  }
  /** One format's files under one folder, sorted by path. */
  async function findIn(
    format: RuleFormat,
    base: string,
    confine: Reach | undefined,
    realBase: string | undefined,
  ): Promise<Entry[]> {
    const perLocation = await Promise.all(
      format.locations.map((l) =>
        findRuleFiles(base, l, confine, options.signal, undefined, realBase),
      ),
    );
    const found = withFallbacks(format, perLocation).sort((a, b) =>
      Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)),
    );
    return found.map((candidate) => ({ candidate, format }));
  }

  // The formats wanted, in prompt order; a project's own layer only when it is trusted.
  const formats = RULE_FORMATS.filter((f) => formatWanted(f, sources)).filter(
    (f) => trusted || f.scope !== "project-layer",
  );
  const groups: Entry[][][] = formats.map(() => []);
  // The user's own rule files first, found, read and parsed before any of the
  // project's folders is looked at: a repository whose rules folders take
  // the step's whole deadline to list (seven of them linked to one folder
  // of 200,000 files) or to parse must not leave the user's rules out.
  // Not yours when the untrusted project holds them (HOME at or inside the checkout): each
  // format's folders are left out, and named in format order (the look-ups run at once).
  const where = { cwd, home, trusted, signal: options.signal };
  const refused: Diagnostic[][] = formats.map(() => []);
  const own = async (i: number, format: RuleFormat, base: string, named: boolean) => {
    let mine = true;
    for (const location of format.locations) {
      const path = join(base, location.rel);
      if (named || !(await ownFolderInProject(path, where))) continue;
      mine = false;
      if ((await lstat(path).catch(() => undefined)) !== undefined) {
        refused[i]?.push(ownFolderInProjectDiagnostic(path));
      }
    }
    return mine;
  };
  await Promise.all(
    formats.map(async (format, i) => {
      if (format.scope === "agent-dir") {
        if (await own(i, format, agentDir, options.agentDir !== undefined))
          groups[i] = [await findIn(format, agentDir, undefined, undefined)];
      } else if (format.scope === "home" && (await own(i, format, home, false)))
        groups[i] = [await findIn(format, home, undefined, undefined)];
    }),
  );
  pushAll(diagnostics, refused.flat());
  await readLayer(
    formats.flatMap((f, i) => (layerOf(f) === "user" ? (groups[i] ?? []).flat() : [])),
    { own: () => ownFilesOf(agentDir, { home, trusted, cwd, signal: options.signal }) },
  );
  await options.beforeProject?.();

  // The project's reach: its root (narrowed when it is or holds the home
  // folder), and for an untrusted project its private files.
  const passed: RefusedRootMarker[] = [];
  const reach = await projectReach({
    start: cwd,
    home,
    trusted,
    ceiling,
    signal: options.signal,
    refused: passed,
  });
  const projectRoot = reach.root;
  // A marker passed over with no root found above it: the rule files of its folder and those
  // down to cwd's parent are not read (cwd's own are, and a root found above reads them all).
  if (
    projectRoot === cwd &&
    RULE_FORMATS.some((f) => formatWanted(f, sources) && f.scope === "project")
  ) {
    const lost = passed.filter((r) => r.dir !== cwd);
    pushAll(diagnostics, rootMarkerRefusedDiagnostics(lost, "rules"));
  }
  const cut = capChain(
    ancestorsOf(cwd, ceiling).filter((d) => isWithin(d, projectRoot)),
    projectRoot,
  );
  const projectFolders = cut.folders;
  // Each folder's real path from its parent's: a realpath per folder walks the whole chain again.
  const realOf = new Map(
    (await chainFolders(projectFolders, options.signal)).map((f) => [f.dir, f.real]),
  );
  const layerDir = join(cwd, options.projectDir ?? DEFAULT_PROJECT_DIR);
  if (cut.skipped > 0) {
    diagnostics.push(chainCutDiagnostic(cwd, projectRoot, cut.skipped, "rule files"));
  }
  const gemini = sources.has("gemini") ? await geminiContextNames(cwd, reach) : { diagnostics: [] };
  pushAll(diagnostics, gemini.diagnostics);
  // A name the settings set is the repository's word, trusted or not: never a file git ignores
  // (your .env, a credentials.json your global excludes name), nor one in a hidden folder
  // (settingsNamedHidden), as on touch (context-ignored).
  const ignored = privatePaths(reach.realRoot, { hidden: false, home, signal: options.signal });
  const namedByGit = (entries: Entry[]) =>
    Promise.all(
      entries.map(async (e) => ({
        ...e,
        candidate: await notIgnored(e.candidate, ignored, reach.realRoot),
      })),
    );
  if (
    !trusted &&
    RULE_FORMATS.some((f) => formatWanted(f, sources) && f.scope === "project-layer")
  ) {
    pushAll(diagnostics, await untrustedLayerRules(layerDir));
  }
  // Every known location of every project folder at once; the order is restored after.
  // Project files may not reach outside the project, trusted or not: a rule
  // file is text the repository controls, and it is inlined.
  await Promise.all(
    formats.map(async (plain, i) => {
      if (layerOf(plain) !== "project") return;
      const format = withGeminiNames(plain, gemini.names);
      const bases = format.scope === "project" ? projectFolders : [layerDir];
      const found = await Promise.all(
        bases.map((base) => findIn(format, base, reach, realOf.get(base))),
      );
      groups[i] = format === plain ? found : await Promise.all(found.map(namedByGit));
    }),
  );
  await readLayer(
    formats.flatMap((f, i) => (layerOf(f) === "project" ? (groups[i] ?? []).flat() : [])),
    { reach },
  );
  pushAll(diagnostics, parseDiagnostics);

  // Each file's account and rule at its place in prompt order.
  const inOrder = groups.flat(2).map((e) => done.get(e));
  const accounts = inOrder.flatMap((d) => (d?.account ? [d.account] : []));
  const read = inOrder.flatMap((d) => (d?.read ? [d.read] : []));

  // A trusted project's rule beats the user's of the same format and name. An
  // untrusted project's never does: naming its file like the user's would
  // take the user's rule out of the prompt. Both are kept, the user's first.
  const projectNames = new Map(
    read
      .filter((r) => trusted && r.rule.layer === "project")
      .map((r) => [`${r.rule.source}\0${r.rule.name}`, r.rule.path]),
  );
  const unshadowed = read.filter(({ rule, account }) => {
    const by = rule.layer === "user" ? projectNames.get(`${rule.source}\0${rule.name}`) : undefined;
    if (by !== undefined) account.fate = { status: "shadowed", by };
    return by === undefined;
  });
  // A warning for each file over a cap, up to a few of each reason: a
  // repository's 5,000 rule files must not bury the other diagnostics.
  const overCap = new Map<string, { first: string; more: number }>();
  // Files an agent does not use: one info per folder, at its first file's place.
  const disabled = disabledDiagnostics(
    accounts.flatMap((a) =>
      a.fate.status === "disabled" ? [{ path: a.path, reason: a.fate.reason }] : [],
    ),
  );
  for (const account of accounts) {
    if (account.fate.status === "disabled") {
      const folder = posix.dirname(account.path);
      const d = disabled.get(folder);
      if (d !== undefined) diagnostics.push(d);
      disabled.delete(folder);
      continue;
    }
    if (account.fate.status === "over-cap") {
      const seenReason = overCap.get(account.fate.reason);
      if (seenReason === undefined)
        overCap.set(account.fate.reason, { first: account.path, more: 0 });
      else if (++seenReason.more > MAX_OVER_CAP_NAMED - 1) continue;
    }
    const d = accountDiagnostic(account);
    if (d) diagnostics.push(d);
  }
  for (const [reason, { first, more }] of overCap) {
    const unnamed = more - (MAX_OVER_CAP_NAMED - 1);
    if (unnamed <= 0) continue;
    diagnostics.push({
      level: "warning",
      code: "rule-over-cap",
      message: `${unnamed} more rule files not read for the same reason (${reason}); \`sysprompt explain\` lists them`,
      path: first,
    });
  }
  return { rules: unshadowed.map((r) => r.rule), accounts, diagnostics };
}

/**
 * What {@link loadRules} gives from the user's rules read so far (`soFar`), deduped
 * as a whole load is: the value of a load stopped at its deadline.
 */
export function rulesSoFar(
  soFar: { rules: readonly Rule[]; accounts: readonly RuleAccount[] },
  stated: readonly StatedText[],
): { rules: Rule[]; diagnostics: Diagnostic[] } {
  const loaded = { rules: [...soFar.rules], accounts: [...soFar.accounts], diagnostics: [] };
  const done = dedupeLoaded(loaded, stated);
  return { rules: done.rules, diagnostics: done.diagnostics };
}

/**
 * Dedupes always rules against `stated` and each other ({@link dedupeRules})
 * without changing `loaded`: its accounts are copied (a prompt session keeps
 * the step's value for the next render). Returns the rules kept (cut ones
 * with their new text), every account, and one diagnostic per rule dropped or cut.
 */
export function dedupeLoaded(
  loaded: LoadedRules,
  stated: readonly StatedText[],
): { rules: Rule[]; accounts: RuleAccount[]; diagnostics: Diagnostic[] } {
  const accounts = loaded.accounts.map((a) => ({ ...a, fate: { ...a.fate } }) as RuleAccount);
  const byPath = new Map(accounts.map((a) => [a.path, a]));
  const entries = loaded.rules.flatMap((rule) => {
    const account = byPath.get(rule.path);
    return account ? [{ rule, account }] : [];
  });
  const kept = dedupeRules(entries, stated);
  // A rule dropped or cut says so (an info); the others have nothing to say here.
  const diagnostics = entries.flatMap((e) => {
    const d =
      ["deduped", "duplicate"].includes(e.account.fate.status) || e.account.trimmed
        ? accountDiagnostic(e.account)
        : undefined;
    return d ? [d] : [];
  });
  return { rules: kept.map((e) => e.rule), accounts, diagnostics };
}

/**
 * One folder's candidates of a format, flattened; those its agent does not
 * use are disabled, unread: a `notUsed` location's, and a fallback
 * location's (`fallbackFor`) whose main location gave a file there.
 */
function withFallbacks(format: RuleFormat, perLocation: RuleCandidate[][]): RuleCandidate[] {
  return perLocation.flatMap((found, i) => {
    const location = format.locations[i];
    const main = location?.fallbackFor;
    const at = format.locations.findIndex((l) => l.rel === main?.rel);
    const why =
      main !== undefined && perLocation[at]?.some((c) => !c.refused)
        ? () => main.reason
        : location?.notUsed;
    if (why === undefined) return found;
    return found.map((c) => (c.refused ? c : { ...c, disabled: why(toPosix(c.path)) }));
  });
}

/**
 * A candidate found by a name `context.fileName` set, refused when git
 * ignores it (or it is inside `.git/`) or a name on its path below the
 * project's top `realRoot` is hidden ({@link settingsNamedHidden}): the
 * setting names the folder's instructions, never a file the clone keeps out
 * of the repository.
 */
async function notIgnored(
  candidate: RuleCandidate,
  ignored: (path: string) => Promise<PrivateVerdict | undefined>,
  realRoot: string,
): Promise<RuleCandidate> {
  if (candidate.location.named !== true) return candidate;
  const real = candidate.real ?? candidate.path;
  // Hidden is refused trusted or not: said so before the door's own refusal, whose words would
  // name a trust that does not read it (rev104a F5).
  const hidden = settingsNamedHidden(candidate.path, real, realRoot);
  if (hidden !== undefined) {
    const { door: _, ...found } = candidate;
    return { ...found, refused: { status: "refused", reason: settingsNamedWords(hidden) } };
  }
  if (candidate.refused) return candidate;
  const verdict = await ignored(real);
  if (verdict === undefined) return candidate;
  // Below ignore rules not read whole, GEMINI.md is not proven ignored: the door judges it, as
  // when no setting names it. A name the repository made up is refused: git may ignore it.
  if (verdict.cut && NESTED_CONTEXT_NAMES.includes(posix.basename(toPosix(candidate.path))))
    return candidate;
  return { ...candidate, refused: { status: "refused", reason: settingsNamedWords(verdict) } };
}

/** Gemini CLI's project format, reading the names `context.fileName` sets instead of GEMINI.md. */
function withGeminiNames(format: RuleFormat, names: readonly string[] | undefined): RuleFormat {
  if (format.source !== "gemini" || format.scope !== "project" || names === undefined)
    return format;
  return {
    ...format,
    locations: [
      ...names.map((rel) => ({ rel, kind: "file" as const, named: true })),
      GEMINI_DIR_FILE,
    ],
  };
}

/** One rule file's text read into a rule, by its location's fields (none: the whole file, always). */
export function toRule(
  candidate: RuleCandidate,
  format: RuleFormat,
  layer: Rule["layer"],
  text: string,
  path: string,
): { rule: Rule; disabled?: string; diagnostics: Diagnostic[] } {
  const fields = candidate.location.fields;
  const base = { name: ruleName(candidate.rel), path, source: format.source, layer };
  if (!fields) {
    const content = normalizeText(text).trim();
    return {
      rule: { ...base, content, activation: "always", globs: [] },
      ...(content === "" ? { disabled: "the file has no text" } : {}),
      diagnostics: [],
    };
  }
  const doc = readRuleDocument(text, path);
  const read = fields(doc, path);
  const empty = doc.body.trim() === "" ? "the file has no text after its frontmatter" : undefined;
  const disabled = read.disabled ?? empty;
  return {
    rule: {
      ...base,
      ...(read.name ? { name: read.name } : {}),
      content: doc.body.trim(),
      activation: read.activation,
      globs: read.globs,
      ...(read.description ? { description: read.description } : {}),
    },
    ...(disabled ? { disabled } : {}),
    diagnostics: [
      ...doc.diagnostics,
      ...read.diagnostics,
      // What of its globs matches nothing is said where the rule is read (rev79h F4).
      ...(read.activation === "glob" ? globDiagnostics(read.globs, path) : []),
    ],
  };
}

/** `.pi/rules` of an untrusted project: not read; said once if it is there, with how to trust. */
async function untrustedLayerRules(layerDir: string): Promise<Diagnostic[]> {
  const dir = join(layerDir, "rules");
  try {
    await lstat(dir);
  } catch {
    // Not there (or not searchable): nothing was refused.
    return [];
  }
  return [
    {
      level: "info",
      code: "rules-untrusted",
      message: `not read: the project is not trusted, so its own rules folder is skipped (trust the project, e.g. without --untrusted, to read it); other agents' rule files still load as text`,
      path: toPosix(dir),
    },
  ];
}
