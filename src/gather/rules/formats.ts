import { maxOf } from "../../_arrays.js";
import { describe } from "../../_text.js";
import type { Diagnostic } from "../../types.js";
import { flagField, listField, type RuleDocument, textField } from "./_fields.js";
import type { RuleActivation, RuleSource } from "./types.js";

/** What a format's fields say about one file. */
export interface ActivationRead {
  activation: RuleActivation;
  globs: string[];
  description?: string;
  /** Set when the fields switch the rule off (Cline's `paths: []`): why. */
  disabled?: string;
  /** The rule's own name, when its format has one (Continue's `name`); else the file's. */
  name?: string;
  diagnostics: Diagnostic[];
}

/** Reads a file's activation from its frontmatter; `undefined` doc: the file is read as plain text. */
export type ActivationReader = (doc: RuleDocument, path: string) => ActivationRead;

/** Where a format's files are, relative to a folder. */
export interface RuleLocation {
  /** Relative path of the file or folder (forward slashes). */
  rel: string;
  /** `file`: one file; `dir`: the folder's matching files; `either`: whichever it is. */
  kind: "file" | "dir" | "either";
  /** For folders: also the folders below it (`**`). */
  recursive?: boolean;
  /** For folders: the file names that are rules. */
  match?: (name: string) => boolean;
  /** For folders: which paths below the folder are searched (`rules-code/x.md`); default all. */
  select?: (rel: string) => boolean;
  /** Undefined: no frontmatter is read, the whole file is an always rule (legacy single files). */
  fields?: ActivationReader;
  /**
   * The name was written in a repository file (`context.fileName` of
   * `.gemini/settings.json`), not known here: the door checks it as it
   * checks an import, so an untrusted project cannot name its `.env`.
   */
  named?: boolean;
  /**
   * A file its agent's users keep out of git by design (`CLAUDE.local.md`):
   * your own notes for the project, which a repository cannot make. Found at
   * its own name, it is read though git ignores it or your lists name it,
   * untrusted too (a link there is judged as any other).
   */
  local?: boolean;
  /**
   * The agent also finds this location in folders below cwd (Windsurf's
   * `.windsurf/rules`): those are read on touch, for the folders on a touched
   * path (nested.ts), never by walking the tree.
   */
  belowCwd?: boolean;
  /**
   * Read only when the location `rel` in the same folder gives no file
   * (Roo's `.roorules`, its fallback for `.roo/rules`); otherwise named in
   * `explain`, disabled with `reason`.
   */
  fallbackFor?: { rel: string; reason: string };
  /**
   * A file its agent's users may expect to be used, which is not: why (from
   * its path). Named in `explain`, never read, so it takes nothing of the
   * rules' byte budget.
   */
  notUsed?: (path: string) => string;
}

/** Where a format is read. */
export type RuleScope =
  /** Every folder from the project root down to cwd. */
  | "project"
  /** The project layer folder (`<cwd>/.pi`), when the project is trusted. */
  | "project-layer"
  /** The agent dir. */
  | "agent-dir"
  /** The home folder: another agent's user-level folder, read only when asked for. */
  | "home";

export interface RuleFormat {
  source: RuleSource;
  scope: RuleScope;
  locations: RuleLocation[];
}

const md = (name: string) => name.endsWith(".md");
const anyFile = () => true;

const always = (description?: string): ActivationRead => ({
  activation: "always",
  globs: [],
  ...(description ? { description } : {}),
  diagnostics: [],
});

/** Activation from the fields in the issue's order: always, glob, model (a description only), manual. */
function byFields(
  isAlways: boolean,
  globs: string[] | undefined,
  description: string | undefined,
  otherwise: RuleActivation,
  diagnostics: Diagnostic[],
): ActivationRead {
  const d = description ? { description } : {};
  if (isAlways) return { activation: "always", globs: [], ...d, diagnostics };
  if (globs && globs.length > 0) return { activation: "glob", globs, ...d, diagnostics };
  if (description) return { activation: "model", globs: [], ...d, diagnostics };
  return { activation: otherwise, globs: [], diagnostics };
}

/** Cursor (and sysprompt's own): `alwaysApply`, `globs`, `description`; none of them: manual. */
export function cursorFields(otherwise: RuleActivation): ActivationReader {
  return (doc, path) => {
    const flag = flagField(doc, "alwaysApply", path);
    return byFields(
      flag.value === true,
      listField(doc, "globs"),
      textField(doc, "description"),
      // Continue: an explicit `alwaysApply: false` without globs is not always.
      flag.value === false && otherwise === "always" ? "manual" : otherwise,
      flag.diagnostics,
    );
  };
}

/**
 * Cursor reads a plain `.md` in `.cursor/rules` as a rule without activation
 * fields: applied only when the user @-mentions it. The fields that choose an
 * activation are read from `.mdc` files. Source: cursor.com/docs/context/rules
 * as summarised by the agent-policy reference (cameronbrooks11.github.io/
 * agent-policy/reference/targets/cursor-rules, 2026); not checked in Cursor itself.
 */
const cursorMdFields: ActivationReader = (doc) => ({
  ...byFields(false, undefined, undefined, "manual", []),
  ...(textField(doc, "description") ? { description: textField(doc, "description") } : {}),
});

const WINDSURF_TRIGGERS = ["always_on", "glob", "model_decision", "manual"];

/** Windsurf: `trigger: always_on | glob | model_decision | manual`. */
const windsurfFields: ActivationReader = (doc, path) => {
  const trigger = textField(doc, "trigger");
  const globs = listField(doc, "globs");
  const description = textField(doc, "description");
  const diagnostics: Diagnostic[] = [];
  if (trigger !== undefined && !WINDSURF_TRIGGERS.includes(trigger)) {
    diagnostics.push(unknownValue("trigger", trigger, WINDSURF_TRIGGERS, doc, path));
  }
  if (trigger === "always_on") return byFields(true, [], description, "manual", diagnostics);
  if (trigger === "manual") return byFields(false, [], undefined, "manual", diagnostics);
  if (trigger === "glob" && !globs?.length) diagnostics.push(missing("globs", "glob", doc, path));
  if (trigger === "model_decision" && !description) {
    diagnostics.push(missing("description", "model_decision", doc, path));
  }
  return byFields(false, globs, description, "manual", diagnostics);
};

/**
 * Cline: no `paths` → always; `paths` → glob; `paths: []` → never loaded.
 * Source: cline/cline apps/vscode/src/core/context/instructions/user-instructions/rule-conditionals.ts at 21cb8d2525 (2026-08-22).
 */
const clineFields: ActivationReader = (doc) => {
  const paths = listField(doc, "paths");
  const description = textField(doc, "description");
  if (paths === undefined) return always(description);
  if (paths.length === 0) {
    return { ...always(description), disabled: "paths: [] (Cline never loads it)" };
  }
  return byFields(false, paths, description, "manual", []);
};

const EVERYWHERE = new Set(["**", "**/*", "*"]);

/**
 * Copilot `*.instructions.md`: `applyTo` of everything → always; others →
 * glob; none → manual. `excludeAgent: "coding-agent"` keeps the file from
 * Copilot's coding agent, so it reaches no coding agent here either
 * (`"code-review"` excludes only the reviewer). Source: github/docs
 * data/reusables/copilot/custom-instructions-path.md (PR 41239, Nov 2025).
 */
const copilotFields: ActivationReader = (doc) => {
  const applyTo = listField(doc, "applyTo");
  const description = textField(doc, "description");
  const excluded = listField(doc, "excludeAgent")?.includes("coding-agent");
  const read = applyTo?.some((g) => EVERYWHERE.has(g))
    ? always(description)
    : byFields(false, applyTo, description, "manual", []);
  return excluded
    ? { ...read, disabled: 'excludeAgent: "coding-agent" (Copilot keeps it from coding agents)' }
    : read;
};

/** Claude Code `.claude/rules`: `paths` → glob, else always. */
const claudeFields: ActivationReader = (doc) => {
  const paths = listField(doc, "paths");
  const description = textField(doc, "description");
  return paths && paths.length > 0
    ? byFields(false, paths, description, "always", [])
    : always(description);
};

/**
 * Continue `.continue/rules` (and the non-invokable files of
 * `.continue/prompts`): `alwaysApply: true`, or no `globs` and no `regex`
 * (unless `alwaysApply: false`) → always; `globs` → glob; `regex` alone → the
 * model reads it when a file's text matches (its description says so);
 * `name` names the rule; `invokable: true` is a slash command, not a rule.
 * Source: continuedev/continue core/llm/rules/getSystemMessageWithRules.ts
 * and core/config/markdown/loadMarkdownRules.ts at d0a3c0b626 (2026-06-18).
 */
const continueFields: ActivationReader = (doc, path) => {
  const base = cursorFields("always")(doc, path);
  const name = textField(doc, "name");
  const regex = listField(doc, "regex");
  const named = name ? { name } : {};
  if (flagField(doc, "invokable", path).value === true) {
    return {
      ...base,
      ...named,
      disabled: "invokable: true (a slash command in Continue, not a rule)",
    };
  }
  if (
    !regex?.length ||
    base.activation === "glob" ||
    flagField(doc, "alwaysApply", path).value === true
  ) {
    return { ...base, ...named };
  }
  const when = `when a file's text matches ${regex.map((r) => `/${r}/`).join(" or ")}`;
  const description = base.description ? `${base.description} (${when})` : `Applies ${when}`;
  return { ...base, ...named, activation: "model", description };
};

/**
 * Roo's mode rules (`.roo/rules-{mode}/`, and its fallbacks `.roorules-{mode}`
 * and `.clinerules-{mode}`): Roo adds them only while it is in that mode
 * (code, architect, ask, debug, orchestrator or a custom mode). A prompt here
 * is in no Roo mode: `agentMode` names an agent's approval mode (Gemini CLI's
 * `yolo`, `plan`), not Roo's, so they are named in `explain` and never used.
 * Source: as the roo format's below.
 */
const rooModeFile = (path: string) =>
  `Roo adds it only in its "${rooMode(path)}" mode, and this prompt is in no Roo mode`;

/** The mode of `.roo/rules-{mode}/…`, `.roorules-{mode}` or `.clinerules-{mode}`. */
function rooMode(path: string): string {
  return (
    /\/\.roo\/rules-([^/]+)\//.exec(path)?.[1] ??
    /\/\.(?:roo|cline)rules-([^/]+)$/.exec(path)?.[1] ??
    "?"
  );
}

/** `.roorules-{mode}` and `.clinerules-{mode}`, which Roo reads in the folder itself. */
const isRooModeFile = (name: string) => /^\.(?:roo|cline)rules-[^/]+$/.test(name);

const KIRO_INCLUSIONS = ["always", "fileMatch", "manual", "auto"];

/** Kiro steering: `inclusion: always` (default) / `fileMatch` + `fileMatchPattern` / `manual` / `auto` + `description`. */
const kiroFields: ActivationReader = (doc, path) => {
  const inclusion = textField(doc, "inclusion") ?? "always";
  const description = textField(doc, "description");
  const diagnostics: Diagnostic[] = [];
  if (!KIRO_INCLUSIONS.includes(inclusion)) {
    diagnostics.push(unknownValue("inclusion", inclusion, KIRO_INCLUSIONS, doc, path));
    return byFields(true, [], description, "always", diagnostics);
  }
  if (inclusion === "always") return byFields(true, [], description, "always", diagnostics);
  if (inclusion === "manual") return byFields(false, [], undefined, "manual", diagnostics);
  if (inclusion === "fileMatch") {
    const globs = listField(doc, "fileMatchPattern");
    if (!globs?.length) diagnostics.push(missing("fileMatchPattern", "fileMatch", doc, path));
    return byFields(false, globs, undefined, "manual", diagnostics);
  }
  if (!description) diagnostics.push(missing("description", "auto", doc, path));
  return byFields(false, [], description, "manual", diagnostics);
};

function unknownValue(
  key: string,
  value: string,
  known: readonly string[],
  doc: RuleDocument,
  path: string,
): Diagnostic {
  const line = doc.keyLines[key];
  return {
    level: "warning",
    code: "rule-field-unknown-value",
    message: `${key}: ${describe(value, "yaml")} is not one of ${known.join(", ")}; activation read from the other fields`,
    path,
    ...(line !== undefined ? { line, column: 1 } : {}),
  };
}

function missing(key: string, mode: string, doc: RuleDocument, path: string): Diagnostic {
  const line = doc.keyLines[key] ?? doc.keyLines.trigger ?? doc.keyLines.inclusion;
  return {
    level: "warning",
    code: "rule-field-missing",
    message: `${mode} without ${key}: the rule cannot be offered that way; activation read from the other fields`,
    path,
    ...(line !== undefined ? { line, column: 1 } : {}),
  };
}

/** A project's `.gemini/GEMINI.md`: not read by Gemini CLI, so named and left out. */
export const GEMINI_DIR_FILE: RuleLocation = {
  rel: ".gemini/GEMINI.md",
  kind: "file",
  notUsed: () =>
    "Gemini CLI reads GEMINI.md from ~/.gemini only, never from a project's .gemini folder",
};

/**
 * Every format, in prompt order (a rule's place is by format, then by folder
 * outermost first, then by path). Paths are as each agent documents them.
 */
export const RULE_FORMATS: readonly RuleFormat[] = [
  {
    source: "sysprompt",
    scope: "agent-dir",
    locations: [{ rel: "rules", kind: "dir", match: md, fields: cursorFields("manual") }],
  },
  {
    source: "sysprompt",
    scope: "project-layer",
    locations: [{ rel: "rules", kind: "dir", match: md, fields: cursorFields("manual") }],
  },
  {
    source: "cursor",
    scope: "project",
    locations: [
      { rel: ".cursorrules", kind: "file" },
      {
        rel: ".cursor/rules",
        kind: "dir",
        recursive: true,
        match: (n) => n.endsWith(".mdc") || n.endsWith(".md"),
        fields: (doc, path) =>
          path.endsWith(".mdc") ? cursorFields("manual")(doc, path) : cursorMdFields(doc, path),
      },
    ],
  },
  {
    source: "windsurf",
    scope: "home",
    locations: [{ rel: ".codeium/windsurf/memories/global_rules.md", kind: "file" }],
  },
  {
    source: "windsurf",
    scope: "project",
    // docs.windsurf.com/windsurf/cascade/memories, "Rules discovery" (read 2026-12): every
    // .windsurf/rules in the workspace and its subfolders, and in parent folders up to the git root.
    locations: [
      { rel: ".windsurfrules", kind: "file" },
      { rel: ".windsurf/rules", kind: "dir", match: md, fields: windsurfFields, belowCwd: true },
    ],
  },
  {
    source: "cline",
    scope: "project",
    locations: [
      { rel: ".clinerules", kind: "either", match: md, fields: clineFields },
      { rel: ".cline/rules", kind: "dir", match: md, fields: clineFields },
    ],
  },
  {
    source: "copilot",
    scope: "home",
    locations: [
      {
        rel: ".copilot/instructions",
        kind: "dir",
        recursive: true,
        match: (n) => n.endsWith(".instructions.md"),
        fields: copilotFields,
      },
    ],
  },
  {
    source: "copilot",
    scope: "project",
    locations: [
      { rel: ".github/copilot-instructions.md", kind: "file" },
      {
        rel: ".github/instructions",
        kind: "dir",
        recursive: true,
        match: (n) => n.endsWith(".instructions.md"),
        fields: copilotFields,
      },
    ],
  },
  {
    source: "claude",
    scope: "home",
    locations: [
      { rel: ".claude/rules", kind: "dir", recursive: true, match: md, fields: claudeFields },
    ],
  },
  {
    source: "claude",
    scope: "project",
    // docs.claude.com/docs/claude-code/memory (2026-08): CLAUDE.md or .claude/CLAUDE.md, CLAUDE.local.md,
    // .claude/rules. Claude Code 2.1.332 (read in its bundled binary: the per-folder loader) loads the same
    // four per folder, from the root down to cwd at start and in a folder below when it reads a file
    // there; CLAUDE.local.md whether git ignores it or not (nested CLAUDE.md is a context file here).
    locations: [
      { rel: "CLAUDE.local.md", kind: "file", belowCwd: true, local: true },
      { rel: ".claude/CLAUDE.md", kind: "file", belowCwd: true },
      {
        rel: ".claude/rules",
        kind: "dir",
        recursive: true,
        match: md,
        fields: claudeFields,
        belowCwd: true,
      },
    ],
  },
  // Every folder from the git root down to cwd; `context.fileName` in .gemini/settings.json
  // replaces the name (load.ts). A project's .gemini/GEMINI.md is not read by Gemini CLI
  // (only ~/.gemini/GEMINI.md): gemini-cli memoryDiscovery.ts at 5411f113ca (2026-08-21).
  {
    source: "gemini",
    scope: "project",
    locations: [{ rel: "GEMINI.md", kind: "file" }, GEMINI_DIR_FILE],
  },
  {
    source: "kiro",
    scope: "home",
    locations: [{ rel: ".kiro/steering", kind: "dir", match: md, fields: kiroFields }],
  },
  {
    source: "kiro",
    scope: "project",
    locations: [{ rel: ".kiro/steering", kind: "dir", match: md, fields: kiroFields }],
  },
  {
    source: "roo",
    scope: "home",
    locations: [{ rel: ".roo/rules", kind: "dir", recursive: true, match: anyFile }],
  },
  {
    source: "roo",
    scope: "project",
    // RooCodeInc/Roo-Code src/core/prompts/sections/custom-instructions.ts at cb83656718
    // (2026-04-14, the last release before Roo's sunset): .roo/rules, else .roorules;
    // AGENTS.local.md; in a mode, .roo/rules-{mode}, else .roorules-{mode}, else .clinerules-{mode}.
    locations: [
      {
        rel: ".roorules",
        kind: "file",
        fallbackFor: {
          rel: ".roo/rules",
          reason: "Roo reads .roorules only when .roo/rules holds no file, and it holds some",
        },
      },
      { rel: ".roo/rules", kind: "dir", recursive: true, match: anyFile },
      { rel: "AGENTS.local.md", kind: "file", local: true },
      {
        rel: ".roo",
        kind: "dir",
        recursive: true,
        match: anyFile,
        select: (rel) => /^rules-[^/]+\//.test(rel),
        notUsed: rooModeFile,
      },
      // The folder itself, listed for these names (one batch-capped listing, never deeper).
      { rel: "", kind: "dir", match: isRooModeFile, notUsed: rooModeFile },
    ],
  },
  {
    source: "continue",
    scope: "project",
    locations: [
      // Continue (and Roo) read AGENT.md as they read AGENTS.md, which is a context file here.
      { rel: "AGENT.md", kind: "file" },
      { rel: ".continue/rules", kind: "dir", recursive: true, match: md, fields: continueFields },
      { rel: ".continue/prompts", kind: "dir", recursive: true, match: md, fields: continueFields },
    ],
  },
  { source: "zed", scope: "project", locations: [{ rel: ".rules", kind: "file" }] },
];

/** The sources the `ruleSources` option may name: every format, and `user:<format>` for another agent's user-level folder. */
export const RULE_SOURCE_NAMES: readonly string[] = [
  ...new Set(RULE_FORMATS.filter((f) => f.scope !== "home").map((f) => f.source)),
  ...RULE_FORMATS.filter((f) => f.scope === "home").map((f) => `user:${f.source}`),
];

/** Default of `ruleSources`: every project-level format and sysprompt's own folders; no other agent's user-level folder. */
export const DEFAULT_RULE_SOURCES: readonly string[] = RULE_SOURCE_NAMES.filter(
  (n) => !n.startsWith("user:"),
);

/** True when the format is read under the chosen sources. */
export function formatWanted(format: RuleFormat, sources: ReadonlySet<string>): boolean {
  return sources.has(format.scope === "home" ? `user:${format.source}` : format.source);
}

/** The rule's name: its path below the rules folder (or its file name), without the extension. */
export function ruleName(relPath: string): string {
  for (const ext of [".instructions.md", ".mdc", ".md"]) {
    if (relPath.endsWith(ext) && relPath.length > ext.length) return relPath.slice(0, -ext.length);
  }
  return relPath;
}

/**
 * The names a project folder's rule files start from (`.cursorrules`,
 * `.cursor`, `GEMINI.md`, …): what `watch` looks for in each folder from the
 * project root down to cwd, to see a rule file appear.
 */
export const RULE_ENTRY_NAMES: ReadonlySet<string> = new Set(
  RULE_FORMATS.filter((f) => f.scope === "project").flatMap((f) =>
    f.locations.filter((l) => l.rel !== "").map((l) => l.rel.split("/")[0] ?? l.rel),
  ),
);

/**
 * Most folder levels a project rule location lies below the folder it is
 * looked for in (`.cursor/rules`, `.github/instructions`: 2): a rules
 * folder's own subfolders are searched {@link MAX_RULE_FOLDER_DEPTH} deeper.
 */
export const RULE_LOCATION_LEVELS: number = maxOf(
  RULE_FORMATS.filter((f) => f.scope === "project").flatMap((f) =>
    f.locations.map((l) => {
      const levels = l.rel === "" ? 0 : l.rel.split("/").length;
      return l.kind === "file" ? levels - 1 : levels;
    }),
  ),
  0,
);

/**
 * Places other agents load from a project's folders by themselves, as their instructions, that
 * sysprompt declares no rule format for and does not read: Goose's `.goosehints`, Junie's
 * `.junie/guidelines.md`, Amazon Q's `.amazonq/rules/` (Markdown, any depth), Trae's
 * `.trae/rules/`, Augment's `.augment/rules/` and `.augment-guidelines`, OpenHands'
 * `.openhands/microagents/`, Qwen Code's `QWEN.md`, Crush's `CRUSH.md`, Warp's `WARP.md`,
 * Firebase Studio's `.idx/airules.md`. Not read as rules; known so that {@link ruleLocationOf}, and so
 * `-o`/`--out`, treats them as the declared formats' places: another project's is refused
 * (decided, review rev99a F4). A format declared for one later moves from here to
 * {@link RULE_FORMATS}.
 */
export const UNDECLARED_AGENT_PLACES: readonly {
  agent: string;
  location: RuleLocation;
}[] = [
  { agent: "Goose", location: { rel: ".goosehints", kind: "file" } },
  { agent: "Junie", location: { rel: ".junie/guidelines.md", kind: "file" } },
  {
    agent: "Amazon Q",
    location: { rel: ".amazonq/rules", kind: "dir", recursive: true, match: md },
  },
  { agent: "Trae", location: { rel: ".trae/rules", kind: "dir", recursive: true, match: md } },
  {
    agent: "Augment",
    location: { rel: ".augment/rules", kind: "dir", recursive: true, match: md },
  },
  { agent: "Augment", location: { rel: ".augment-guidelines", kind: "file" } },
  {
    agent: "OpenHands",
    location: { rel: ".openhands/microagents", kind: "dir", recursive: true, match: md },
  },
  // Review rev101d F4: Qwen Code's QWEN.md (a Gemini CLI fork: from the working folder up and
  // below it), Crush's CRUSH.md, Warp's WARP.md (a project's rules), Firebase Studio's
  // `.idx/airules.md`; `.openhands/microagents/repo.md` is above.
  { agent: "Qwen Code", location: { rel: "QWEN.md", kind: "file" } },
  { agent: "Crush", location: { rel: "CRUSH.md", kind: "file" } },
  { agent: "Warp", location: { rel: "WARP.md", kind: "file" } },
  { agent: "Firebase Studio", location: { rel: ".idx/airules.md", kind: "file" } },
  // Review rev103b F5: Antigravity's `.agent/rules`, JetBrains AI Assistant's `.aiassistant/rules`,
  // Qoder's `.qoder/rules`, Tabnine's `.tabnine/guidelines`, Gemini CLI's `.gemini/system.md`
  // (its system prompt, `GEMINI_SYSTEM_MD=1`), Crush's `.crush.md`.
  {
    agent: "Antigravity",
    location: { rel: ".agent/rules", kind: "dir", recursive: true, match: md },
  },
  {
    agent: "JetBrains AI Assistant",
    location: { rel: ".aiassistant/rules", kind: "dir", recursive: true, match: md },
  },
  { agent: "Qoder", location: { rel: ".qoder/rules", kind: "dir", recursive: true, match: md } },
  {
    agent: "Tabnine",
    location: { rel: ".tabnine/guidelines", kind: "dir", recursive: true, match: md },
  },
  { agent: "Gemini CLI", location: { rel: ".gemini/system.md", kind: "file" } },
  { agent: "Crush", location: { rel: ".crush.md", kind: "file" } },
];

/** Where {@link ruleLocationOf} found a path: the format, its location and the folder it is looked for in. */
export interface RulePlace {
  /** The format's source, or the agent of an {@link UNDECLARED_AGENT_PLACES} place. */
  source: RuleSource | string;
  /** The path below `folder`, with `/`, as written (`.github/copilot-instructions.md`). */
  rel: string;
  /** How many of the path's names make the folder the location is looked for in. */
  folderNames: number;
}

/**
 * The rule location of {@link RULE_FORMATS} a path is, read from any of its folders: its names
 * below one of them are a location's file (`.github/copilot-instructions.md`, `.cursorrules`), or
 * a file its folder location takes (`.cursor/rules/a/b.mdc`, `.windsurf/rules/x.md`,
 * `.roo/rules-code/x.md`, `.roorules-code`), by its `match` and `select`; names compared by
 * `key` (without case), a name matched as written or by its key. A project format's location,
 * a place another agent loads that no format declares ({@link UNDECLARED_AGENT_PLACES}),
 * another agent's user-level one (`.codeium/windsurf/memories/global_rules.md`, below any
 * folder), and the project layer's (`layer`, `.pi`, then `rules/*.md`); not the agent dir's own
 * `rules` (a folder of yours, any name). Outermost folder first. Used by `-o`/`--out`'s refusal
 * of another project's rule file (decided, review rev98a F3).
 */
export function ruleLocationOf(
  names: readonly string[],
  key: (name: string) => string,
  layer: string,
): RulePlace | undefined {
  const keys = names.map(key);
  for (let at = 0; at < names.length; at++) {
    for (const format of RULE_FORMATS) {
      if (format.scope === "agent-dir") continue;
      const base = format.scope === "project-layer" ? [key(layer)] : [];
      for (const location of format.locations) {
        const parts = [...base, ...(location.rel === "" ? [] : location.rel.split("/").map(key))];
        if (locationTakes(location, parts, names.slice(at), keys.slice(at))) {
          return { source: format.source, rel: names.slice(at).join("/"), folderNames: at };
        }
      }
    }
    for (const { agent, location } of UNDECLARED_AGENT_PLACES) {
      const parts = location.rel.split("/").map(key);
      if (locationTakes(location, parts, names.slice(at), keys.slice(at))) {
        return { source: agent, rel: names.slice(at).join("/"), folderNames: at };
      }
    }
  }
  return undefined;
}

/** Whether `names` (their keys `keys`) below a folder are a file `location` (at `parts`) takes. */
function locationTakes(
  location: RuleLocation,
  parts: readonly string[],
  names: readonly string[],
  keys: readonly string[],
): boolean {
  if (keys.length < parts.length || parts.some((p, i) => keys[i] !== p)) return false;
  const rest = names.slice(parts.length);
  const restKeys = keys.slice(parts.length);
  if (rest.length === 0) return location.kind !== "dir";
  if (location.kind === "file") return false;
  if (location.recursive !== true && rest.length !== 1) return false;
  const either = (test: (s: string) => boolean, a: string, b: string) => test(a) || test(b);
  const last = rest.length - 1;
  const match = location.match ?? anyFile;
  if (!either(match, rest[last] ?? "", restKeys[last] ?? "")) return false;
  return location.select === undefined
    ? true
    : either(location.select, rest.join("/"), restKeys.join("/"));
}
