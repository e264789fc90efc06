import type { PresetReport } from "../agents/index.js";
import type { RuleFate } from "../gather/rules/index.js";
import type { OptionName } from "../options/registry.js";
import type { PreparedPrompt } from "../render-system-prompt.js";
import type { OptionOrigin, OptionSource } from "../resolve-options.js";
import type { CacheClass } from "../sections/types.js";
import type { Diagnostic, DiagnosticLevel, Layer, RenderResult, StepTiming } from "../types.js";

/** Where `checkProject` and `ejectSections` look. Every field is optional. */
export interface AuthorOptions {
  /** Working directory; the project layer is `<cwd>/<projectDir>`. Default: `process.cwd()`. */
  cwd?: string;
  /** User layer folder. Default: `$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent`. */
  agentDir?: string;
  /** Name of the project layer folder under cwd. Default: `".pi"`. */
  projectDir?: string;
  /** Environment variables (for `$SYSPROMPT_AGENT_DIR`). Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home folder. Default: `os.homedir()`. */
  home?: string;
  /** Builtin prompts folder. Default: the package's own `prompts/`. */
  builtinDir?: string;
}

export interface CheckOptions extends AuthorOptions {
  /** When false, the project's sections, partials, SYSTEM files, skills and templates are skipped, as in a render. Default: true. */
  projectTrusted?: boolean;
  /**
   * Stops reading skills, slash-command templates and presets, as
   * `MAX_CHECK_LOAD_MS` does: what is left is not checked, with a warning.
   */
  signal?: AbortSignal;
}

/** One template file `checkProject` compiled and read. */
export interface CheckedTemplate {
  kind: "section" | "partial" | "system-template";
  name: string;
  layer: Layer;
  path: string;
}

/** What `sysprompt check` reports. */
export interface CheckReport {
  /**
   * Every problem, sorted by file, line and column (problems without a file
   * first); past 20 of one code, the rest are counted in one
   * `diagnostics-capped` diagnostic, as in a render.
   */
  diagnostics: Diagnostic[];
  /** How many diagnostics of each level, those counted in a `diagnostics-capped` too. */
  counts: Record<DiagnosticLevel, number>;
  /** The templates compiled and read, lowest layer first. */
  templates: CheckedTemplate[];
  /** How many combinations of synthetic data every section was rendered with. */
  dataCases: number;
  /** Skills and slash-command templates the loaders found (diagnostics included above). */
  skills: number;
  promptTemplates: number;
}

export interface EjectOptions extends AuthorOptions {
  /** Builtin section names to copy; ignored when `all` is set. */
  names?: readonly string[];
  /** Copy every builtin section. */
  all?: boolean;
  /** Copy into the user layer (`<agentDir>/sections`) instead of the project's. Default: false. */
  user?: boolean;
  /** Replace files that already exist. Default: false (they are left alone and reported). */
  force?: boolean;
}

export interface EjectedFile {
  name: string;
  /** The builtin file copied. */
  from: string;
  /** The file written, or left alone. */
  path: string;
  /** The record written in its frontmatter: `sha256:` and 12 hex digits of the builtin's text. */
  hash: string;
  /**
   * Where the builtin's text is kept for `eject --diff` (`<layer>/.sysprompt/base/<name>.md`;
   * `general-rules.md` for the general rules' list, whose builtin is `prompts/rules.md`).
   */
  base: string;
}

export interface EjectResult {
  /** Folder the sections went to. */
  dir: string;
  written: EjectedFile[];
  /** Files that existed and were left alone (no `force`); when any, nothing was written. */
  skipped: EjectedFile[];
  /** Targets refused (level error, code `unsafe-target`: nothing was written), and notes such as a user override that a project copy now hides. */
  diagnostics: Diagnostic[];
}

/** Where a scenario's sandbox is made. */
export interface ScenarioRenderOptions {
  /**
   * The folder sandboxes are made in (each a fresh folder, removed after).
   * Default: `$XDG_CACHE_HOME/sysprompt/snapshots`, else
   * `~/.cache/sysprompt/snapshots`: not a shared /tmp.
   */
  sandboxDir?: string;
}

/** Options of `runSnapshots`; `sandboxDir` as for a scenario (one a killed run left is removed by the next run). */
export interface SnapshotOptions extends ScenarioRenderOptions {
  /** Write the golden files whose content changed (and only those). Default: false: nothing is written. */
  update?: boolean;
  /**
   * The project (the working folder; the CLI gives the root of its project
   * when the folder is named into it: `outputTarget`): a scenario folder
   * named inside it whose real path leaves it (a link to /tmp/x/snapshots)
   * is refused, as is one named elsewhere whose real path leaves the folder
   * it is named in. Default: `process.cwd()`.
   */
  within?: string;
  /**
   * `target` must be a folder: a file there is refused (a `bad-argument`
   * error), whatever its name. The CLI sets it for its default `snapshots/`.
   * Default: false: a scenario file may be named too.
   */
  folder?: boolean;
  /**
   * Stops the run between two scenarios, as its total of `MAX_SNAPSHOT_MS`
   * does: each scenario not rendered is an error at its file, and nothing
   * of it is compared or written.
   */
  signal?: AbortSignal;
}

/** A scenario rendered as its golden files hold it: placeholders for machine-specific paths. */
export interface RenderedScenario {
  /** The scenario file. */
  file: string;
  name: string;
  /** The prompt: what `<name>.md` holds. */
  text: string;
  /** One `level path:line:column [code] message` line per diagnostic; `""` when there are none. */
  diagnostics: string;
  /** Where each option of the render came from: `scenario` for what the scenario (or its runner) set. */
  origins?: Record<OptionName, OptionOrigin>;
}

/** One golden file of a scenario, compared with the render. */
export interface GoldenFile {
  path: string;
  /** `<name>.md` or `<name>.diagnostics.txt`. */
  kind: "prompt" | "diagnostics";
  /**
   * `same`; `changed`; `missing` (no file: a new scenario, or diagnostics that
   * appeared); `stale` (a diagnostics file while the render has none).
   */
  status: "same" | "changed" | "missing" | "stale";
  /**
   * Unified diff from the golden to the render; absent when same, for a
   * missing prompt golden, and past the report's total of diffs
   * (`MAX_SNAPSHOT_DIFF_CHARS`), where `summary` is given instead.
   */
  diff?: string;
  /**
   * In place of a diff the report had no room for: the golden's and the
   * render's sizes in bytes (UTF-8) and the first line (from 1) where they differ.
   */
  summary?: { goldenBytes: number; renderedBytes: number; firstDifferingLine: number };
  /** True when `update` wrote (or, when stale, removed) the file. */
  updated: boolean;
}

/** What happened to one scenario. */
export interface ScenarioOutcome {
  /** The scenario file. */
  scenario: string;
  name: string;
  /**
   * `pass`: every golden matches. `drift`: one differs. `missing`: there is no
   * `<name>.md`. `updated`: with `update`, the goldens that differed were
   * written. `error`: the scenario file cannot be used (see `error`).
   */
  status: "pass" | "drift" | "missing" | "updated" | "error";
  /** The prompt golden, and the diagnostics golden when it is not `same` (none on error). */
  files: GoldenFile[];
  /**
   * Why the scenario could not be rendered, every problem found: the file (the
   * scenario file, a golden, an entry of the scenario folder), the place in
   * it and the problem.
   */
  errors?: { path: string; message: string; line?: number; column?: number }[];
}

/** What `sysprompt snapshot` reports. */
export interface SnapshotReport {
  /** The folder of the scenarios. */
  dir: string;
  update: boolean;
  /** True when there was at least one scenario and none drifted, missed its golden or failed. */
  ok: boolean;
  counts: Record<ScenarioOutcome["status"], number>;
  /** In file name order. */
  scenarios: ScenarioOutcome[];
}

/** What `explainPrompt` reports about one section of the prompt. */
export interface ExplainedSection {
  name: string;
  /** The `order` that placed it; null for the custom base prompt and new sections from code. */
  order: number | null;
  /** Where its text came from (`option`: a section from code or `--system-prompt`). */
  layer: Layer;
  /** The file its text came from; null when it came from code or option text. */
  path: string | null;
  /** The layer of the version it overrides, if any. */
  overrides: Layer | null;
  /** UTF-8 bytes of the section as it stands in the prompt, tags included. */
  bytes: number;
  /** Estimated tokens of the same text (see `ExplainReport.tokenizer`). */
  tokens: number;
  /** Set when counting reached the deadline and part of `tokens` was estimated from the length (`tokens-estimated`). */
  tokensEstimated?: true;
  /** Its cache class (see `CacheClass`); stable for the custom base prompt and sections from code. */
  cache: CacheClass;
  /** `cache === "volatile"`, kept for readers of the older report. */
  volatile: boolean;
  /** Its `maxTokens` frontmatter, if any. */
  maxTokens: number | null;
  /** The per-model variant that served it (`small` for `rules@small.md`), or null for the plain file. */
  variant: string | null;
}

/** One context file that was read: in the prompt, or dropped by dedupe. */
export interface ExplainedContextFile {
  path: string;
  status: "loaded" | "dropped";
  /** For a dropped file: the files that state every paragraph of it, joined with ", ". */
  containedIn: string | null;
  /** Bytes and estimated tokens of its text in the prompt (imports expanded); null when dropped. */
  bytes: number | null;
  tokens: number | null;
  /** As `ExplainedSection.tokensEstimated`. */
  tokensEstimated?: true;
  /** Files its `@imports` pulled in, every level, in order. */
  imports: string[];
  /** Of the file and its imports, those cut at `maxContextBytes`. */
  cut: string[];
  /** Set when paragraph dedupe left some of its paragraphs out: how many, and which files state them. */
  leftOut?: LeftOutParagraphs;
}

/** Paragraphs of a file that dedupe left out (a marker line stands for them), and the files that state them. */
export interface LeftOutParagraphs {
  paragraphs: number;
  statedIn: string[];
}

/** One rule file found, and what happened to it. */
export interface ExplainedRule {
  path: string;
  /** The agent format (`cursor`, `claude`, …). */
  source: string;
  layer: "user" | "project";
  /** Null when the file was not read far enough to have one (refused, unreadable, over a cap). */
  activation: "always" | "glob" | "model" | "manual" | null;
  /** inlined, listed, manual (not in the prompt), on-touch (a folder below cwd: comes when a path in it is touched), or why it was dropped. */
  status: RuleFate["status"] | "on-touch";
  /** Where its text already is, the file it repeats or shadows, the folder of an on-touch one, or the reason; null for kept rules. */
  detail: string | null;
  /** True when it was longer than the per-file cap and cut. */
  cut: boolean;
  /** Set when paragraph dedupe left some of its paragraphs out. */
  leftOut?: LeftOutParagraphs;
}

/** What `sysprompt explain` reports: where every byte of the prompt came from. */
export interface ExplainReport {
  /** Token counts are estimates with this encoding; other models' tokenizers differ. */
  tokenizer: { encoding: string; estimate: true };
  sections: ExplainedSection[];
  /** `tokensEstimated` here and below: as `ExplainedSection.tokensEstimated`. */
  total: { sections: number; bytes: number; tokens: number; tokensEstimated?: true };
  /**
   * The part of the prompt before the first volatile section (separator
   * included), which stays byte-identical from run to run and so can be cached
   * by a provider across sessions. The whole prompt when nothing is volatile.
   */
  cacheStablePrefix: {
    sections: number;
    bytes: number;
    tokens: number;
    tokensEstimated?: true;
    firstVolatile: string | null;
  };
  /**
   * The prefix that stays cached by class: `through: "stable"` is the leading
   * stable sections (unchanged until a file written for the agent changes),
   * `through: "session"` those and the session sections after them
   * (unchanged for a session). Each with the separator that follows it, and
   * the name of the section it ends with (null when it is empty).
   */
  cachePrefix: {
    through: "stable" | "session";
    sections: number;
    bytes: number;
    tokens: number;
    tokensEstimated?: true;
    endsWith: string | null;
  }[];
  /** Every context file read, in prompt order, and the folders searched for them. */
  contextFiles: { folders: number; files: ExplainedContextFile[] };
  /** Every rule file found (other agents' and sysprompt's own), in prompt order, with its fate. */
  rules: ExplainedRule[];
  /** Skills listed in the prompt, and the tool the model loads them with (null: none is selected). */
  skills: { listed: number; tool: "read" | "bash" | null };
  /** The layer's `general-rules.md` that replaced the builtin general rules, and its rule count; null for the builtin list. */
  generalRules: { path: string; count: number } | null;
  /** Layered section templates and partials in this render; slash-command templates found. */
  templates: { sections: number; partials: number; promptTemplates: number };
  /** Every gathering step with its status and time. */
  steps: StepTiming[];
  /** Wall time of gathering (all steps, in parallel) and of rendering, in ms. */
  timing: { gatherMs: number; renderMs: number };
  /** What fitting `maxPromptTokens` cut; absent when no budget was given. */
  budget?: RenderResult["budget"];
  /**
   * The agent preset in use and what it changed (tools, name, files left out).
   * Absent for the default `pi` when no file of it was read: it changed nothing.
   */
  preset?: PresetReport;
  /**
   * Each setting not at its default (an option with a flag or a
   * `sysprompt.yaml` key; each variable on its own), in the registry's order,
   * with its value and where that came from. The text's `settings:` line.
   */
  settings: ExplainedSetting[];
  diagnostics: Diagnostic[];
}

/** One setting of `explain`: an option not at its default, and where its value came from. */
export interface ExplainedSetting {
  /** The option (`deadlineMs`; `vars` for a variable). */
  option: OptionName;
  /** How a user names it: the config key (`deadline`), `vars.<name>`, else the option. */
  key: string;
  /** The value as one line: a list joined with commas, a record by its names, a long text cut. */
  value: string;
  /** Who gave it: `api`, `cli`, `scenario`, or `config`. */
  source: OptionSource;
  /** For `config`: the file and line, `user:<path>:<line>` or `project:<path>:<line>`. */
  at?: string;
  /** For `cli`: the flag typed (`--agent`); the CLI leaves out what it set itself (its folder as cwd). */
  flag?: string;
}

/** How `watchPrompt` reports and when it stops. */
export interface WatchHooks {
  /** Watching stops, and `watchPrompt` resolves, when this aborts. */
  signal: AbortSignal;
  /** Called after the first render and after every re-render. */
  onRender: (render: WatchRender) => void;
  /** Quiet time after the last file event before a re-render. Default: 100 ms. */
  debounceMs?: number;
  /**
   * The file the caller writes after each render (`watch --export`'s
   * target), and whether the file at a changed path is, as it is now, what
   * the caller last wrote there. Such a change is never a trigger: a render
   * that reads its own export re-rendered on each export (review rev56d F2).
   * Nor is the temporary file this process's safe write makes beside `path`
   * (`isTempNameOf`), heard in a folder watched whole (review rev92d F1).
   * A render that reads `path` says so in a `watch-output-read` warning.
   */
  output?: { path: string; wroteAsIs: (path: string) => boolean };
}

/** One render of `watchPrompt`. */
export interface WatchRender {
  /** 0 for the first render, then 1, 2, … */
  count: number;
  /** The changed files (as the file system reported them) that led to this render; empty for the first. */
  changed: string[];
  /** This render's result; on `error`, the last good one. */
  result: RenderResult;
  /** What `result` was rendered from (templates, data): the inspector shows the data and each section's version. */
  prepared: PreparedPrompt;
  /** The previous render's result (not on the first render, nor on `error`). */
  previous?: RenderResult;
  /** What changed since the previous render, by section (see `diffSections`); undefined when nothing did. */
  changes?: Record<string, string | null>;
  /** The render's diagnostics, then the slash-command templates' (reloaded on every change). */
  diagnostics: Diagnostic[];
  /** The previous render's diagnostics, to tell new problems from fixed ones (absent on the first render). */
  previousDiagnostics?: Diagnostic[];
  /** Time of the render (gathering included), in ms. */
  ms: number;
  /** The folders watched after this render, sorted. */
  watching: string[];
  /** Why this render could not be made (a bad explicit option); watching goes on. */
  error?: Error;
}

export interface EjectDiffOptions extends AuthorOptions {
  /** The section whose override is compared: `rules`, or a variant `rules@small`. */
  name: string;
  /** Look at the user layer's copy (`<agentDir>/sections`) instead of the project's. Default: false. */
  user?: boolean;
}

/** One of the three texts of {@link EjectDiff}, and the file it was read from. */
export interface EjectDiffText {
  path: string;
  text: string;
}

/** What `sysprompt eject --diff NAME` shows: the builtin then, the builtin now, the override. */
export interface EjectDiff {
  name: string;
  /** The override's `ejected-from` record; undefined when it has none (written by hand, or tampered). */
  recorded?: string;
  /** The record of the builtin as it is now; undefined when the builtin is gone. */
  current?: string;
  /** True when there is a record and the builtin no longer matches it. */
  drifted: boolean;
  /**
   * The builtin the override was copied from: the kept text, when its hash
   * matches the record (or the builtin now, when that does); null when unknown.
   */
  builtinThen: EjectDiffText | null;
  /** The builtin now; null when there is no builtin of that name any more. */
  builtinNow: EjectDiffText | null;
  override: EjectDiffText;
  /** Why a text is missing (a kept text that does not match, a refused file). */
  diagnostics: Diagnostic[];
}
