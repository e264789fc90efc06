import type { Diagnostic, DiagnosticLevel, Layer } from "../types.js";

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
  /** Every problem, sorted by file, line and column (problems without a file first). */
  diagnostics: Diagnostic[];
  /** How many diagnostics of each level. */
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
}

export interface EjectResult {
  /** Folder the sections went to. */
  dir: string;
  written: EjectedFile[];
  /** Files that existed and were left alone (no `force`). */
  skipped: EjectedFile[];
  /** Notes such as a user override that a project copy now hides. */
  diagnostics: Diagnostic[];
}

/** Options of `runSnapshots`. */
export interface SnapshotOptions {
  /** Write the golden files whose content changed (and only those). Default: false: nothing is written. */
  update?: boolean;
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
  /** Unified diff from the golden to the render; absent when same, and for a missing prompt golden. */
  diff?: string;
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
  /** Why the scenario could not be rendered: the file, the place in it and the problem. */
  error?: { path: string; message: string; line?: number; column?: number };
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
