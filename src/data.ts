/**
 * The data every section template may use. This file is the one place the
 * schema is written down: `gather` fills it, `render` reads it, and
 * `sysprompt check` validates templates against {@link PROMPT_DATA_SCHEMA}.
 */

export interface EnvironmentEntry {
  label: string;
  value: string;
}

/** Whose a context file is: the user's own (in the agent dir) or a repository's. */
export type ContextOrigin = "user" | "project";

export interface ContextFile {
  /** Path as shown to the model (absolute, forward slashes). */
  path: string;
  content: string;
  /**
   * `user` for the file in the agent dir, `project` for every file found in a
   * folder of cwd or a root (the repository's, whoever wrote it).
   */
  origin: ContextOrigin;
}

export interface SkillEntry {
  name: string;
  description: string;
  /** Path of the skill's file, forward slashes. */
  location: string;
}

export interface WorkspaceTree {
  rendered: string;
  truncated: boolean;
}

/** The tree of one extra workspace root; its first line is the root's absolute path. */
export interface RootTree {
  /** The root, absolute, forward slashes (as in `roots`). */
  path: string;
  rendered: string;
  truncated: boolean;
}

/** A rule file inlined in the prompt (activation `always`). */
export interface AlwaysRule {
  name: string;
  /** The agent format it was written for (`cursor`, `claude`, …). */
  source: string;
  /** Absolute path, forward slashes. */
  path: string;
  /** Its text; a closing tag of the rule element in it is neutralised (`<\/rule`). */
  content: string;
}

/** A rule file the model reads when it applies (activation `glob` or `model`). */
export interface OnDemandRule {
  name: string;
  source: string;
  path: string;
  /** `glob` or `model`. */
  activation: string;
  /** File globs (empty for `model` rules). */
  globs: string[];
  /** The globs joined by ", " (empty for `model` rules). */
  globsText: string;
  /** One line; null when the rule has none (or the token budget left it out). */
  description: string | null;
}

/** The branch's upstream, as `git status` tracks it. */
export interface GitUpstream {
  /** `origin/main`; one line, escaped, capped. */
  name: string;
  /** Commits on the branch that the upstream lacks, and the other way round (0 when `gone`). */
  ahead: number;
  behind: number;
  /** The upstream branch no longer exists. */
  gone: boolean;
}

/** The git repository the working directory is in, taken once when the prompt is gathered. */
export interface GitInfo {
  /** The current branch (one line, escaped, capped); null when HEAD is detached. */
  branch: string | null;
  /** The first 12 hex digits of HEAD's commit; null before the first commit. */
  head: string | null;
  upstream: GitUpstream | null;
  /** Files with changes in the index, changes only in the work tree, untracked files, unmerged files. */
  staged: number;
  unstaged: number;
  untracked: number;
  conflicted: number;
  /**
   * True when git listed more changed paths than are read (256 KiB of
   * `git status` output): the four counts are of the part read, so each is
   * a lower bound (the section says "at least").
   */
  truncated: boolean;
  /** Subjects of the last commits (at most 5), newest first; each one line, escaped, capped. */
  commits: string[];
}

export interface ToolSnippet {
  name: string;
  description: string;
}

export interface PromptData {
  agentName: string;
  /** Working directory with forward slashes. */
  cwd: string;
  /** `YYYY-MM-DD`, UTC. */
  date: string;
  model: string | null;
  /** Selected tool names, in selection order. */
  tools: string[];
  /** The selected tools that have a one-line description, in selection order. */
  toolSnippets: ToolSnippet[];
  /** Behaviour rules, trimmed and deduplicated (first position kept). */
  rules: string[];
  /**
   * The part of `rules` that comes from the selected tools and the caller,
   * without the general rules of the builtin `rules.md`: for a section (such
   * as the builtin `rules@small.md`) that words the general rules its own way.
   */
  guidelines: string[];
  environment: EnvironmentEntry[];
  contextFiles: ContextFile[];
  /** Other agents' rule files that always apply, deduped, in prompt order (by format, then folder outermost first, then path). */
  alwaysRules: AlwaysRule[];
  /** Rule files to read before working on files they cover (`glob`) or when their description fits (`model`). */
  onDemandRules: OnDemandRule[];
  /** Relative paths of AGENTS.md files deeper than cwd. */
  agentsMd: string[];
  /** Absolute paths (forward slashes) of AGENTS.md files deeper than the extra roots. */
  rootAgentsMd: string[];
  /** True when more AGENTS.md files were found than `agentsMd` and `rootAgentsMd` list (together at most 200, the shallowest). */
  agentsMdTruncated: boolean;
  /** True when the host delivers the files of `agentsMd` with the first tool result that touches their folder (`contextOnTouch`). */
  agentsMdOnTouch: boolean;
  /**
   * The instruction files the agent the prompt is for sends the model itself, by name
   * (Claude Code: CLAUDE.md, AGENTS.md where a folder has no CLAUDE.md…), from its preset;
   * empty for pi, which gets every file from this prompt.
   */
  agentLoads: string[];
  /** The working directory's tree; `truncated` is true when it or a root's tree left entries out. */
  workspaceTree: WorkspaceTree | null;
  /** The trees of the extra roots that have one, in the order of `roots` (with a tree only). */
  rootTrees: RootTree[];
  /** Extra workspace roots, forward slashes. */
  roots: string[];
  skills: SkillEntry[];
  skillsTool: "read" | "bash" | null;
  /** APPEND_SYSTEM.md followed by every appendSystemPrompt value, joined by blank lines. */
  appendPrompt: string;
  /** The custom base prompt text, or null when the builtin base sections apply. */
  customPrompt: string | null;
  /** Documentation pointers for the docs section; null when none. */
  docs: string | null;
  /** The repository's state (`git: true` / `--git`); null when off, not a repository, or git is absent or slow. */
  git: GitInfo | null;
  /**
   * Variables from `sysprompt.yaml` (`vars:`), `--var NAME=value` and the
   * `vars` option, by name: `{{vars.team}}`. Empty when none is given.
   */
  vars: Record<string, string>;
}

/**
 * The shape of one value templates see, for `sysprompt check`: a scalar, a
 * list of items, or an object with named fields. `nullable` values may be
 * `null` (templates test them with `{{#if}}`).
 */
export type SchemaNode =
  | { type: "string" | "boolean" | "number"; nullable?: true }
  | { type: "list"; items: SchemaNode; nullable?: true }
  | {
      type: "object";
      fields: Readonly<Record<string, SchemaNode>>;
      nullable?: true;
      /**
       * True for an object whose field names are given at render time (`vars`):
       * `fields` lists the names known where the template is checked, and a
       * name outside them is a warning rather than an error.
       */
      open?: true;
    };

/**
 * The schema node a TypeScript type must have. Tying {@link PROMPT_DATA_SCHEMA}
 * to {@link PromptData} through it means the two cannot drift apart: a field
 * added to the interface without its schema (or the other way round) does not
 * type-check.
 */
export type SchemaOf<T> = null extends T ? NodeOf<NonNullable<T>> & { nullable: true } : NodeOf<T>;

type NodeOf<T> = [T] extends [string]
  ? { type: "string" }
  : [T] extends [boolean]
    ? { type: "boolean" }
    : [T] extends [number]
      ? { type: "number" }
      : [T] extends [readonly (infer Item)[]]
        ? { type: "list"; items: SchemaOf<Item> }
        : string extends keyof T
          ? {
              type: "object";
              fields: Readonly<Record<string, SchemaOf<T[string & keyof T]>>>;
              open: true;
            }
          : { type: "object"; fields: { [K in keyof T]-?: SchemaOf<T[K]> } };

const text = { type: "string" } as const;
const nullableText = { type: "string", nullable: true } as const;
const textList = { type: "list", items: text } as const;
const count = { type: "number" } as const;

/** The data every template sees, as {@link SchemaNode}s: what `sysprompt check` validates paths against. */
export const PROMPT_DATA_SCHEMA: SchemaOf<PromptData> = {
  type: "object",
  fields: {
    agentName: text,
    cwd: text,
    date: text,
    model: nullableText,
    tools: textList,
    toolSnippets: {
      type: "list",
      items: { type: "object", fields: { name: text, description: text } },
    },
    rules: textList,
    guidelines: textList,
    environment: {
      type: "list",
      items: { type: "object", fields: { label: text, value: text } },
    },
    contextFiles: {
      type: "list",
      items: { type: "object", fields: { path: text, content: text, origin: text } },
    },
    alwaysRules: {
      type: "list",
      items: { type: "object", fields: { name: text, source: text, path: text, content: text } },
    },
    onDemandRules: {
      type: "list",
      items: {
        type: "object",
        fields: {
          name: text,
          source: text,
          path: text,
          activation: text,
          globs: textList,
          globsText: text,
          description: nullableText,
        },
      },
    },
    agentsMd: textList,
    rootAgentsMd: textList,
    agentsMdTruncated: { type: "boolean" },
    agentsMdOnTouch: { type: "boolean" },
    agentLoads: textList,
    workspaceTree: {
      type: "object",
      nullable: true,
      fields: { rendered: text, truncated: { type: "boolean" } },
    },
    rootTrees: {
      type: "list",
      items: {
        type: "object",
        fields: { path: text, rendered: text, truncated: { type: "boolean" } },
      },
    },
    roots: textList,
    skills: {
      type: "list",
      items: { type: "object", fields: { name: text, description: text, location: text } },
    },
    skillsTool: nullableText,
    appendPrompt: text,
    customPrompt: nullableText,
    docs: nullableText,
    git: {
      type: "object",
      nullable: true,
      fields: {
        branch: nullableText,
        head: nullableText,
        upstream: {
          type: "object",
          nullable: true,
          fields: { name: text, ahead: count, behind: count, gone: { type: "boolean" } },
        },
        staged: count,
        unstaged: count,
        untracked: count,
        conflicted: count,
        truncated: { type: "boolean" },
        commits: textList,
      },
    },
    // The names are known only where the config files are: see `schemaWithVars`.
    vars: { type: "object", fields: {}, open: true },
  },
};

/** {@link PROMPT_DATA_SCHEMA} with these variable names declared (what `sysprompt check` validates against). */
export function schemaWithVars(names: Iterable<string>): SchemaOf<PromptData> {
  const fields = Object.fromEntries([...names].sort().map((name) => [name, text]));
  return {
    ...PROMPT_DATA_SCHEMA,
    fields: { ...PROMPT_DATA_SCHEMA.fields, vars: { type: "object", fields, open: true } },
  };
}

/** Field names a template may reference at the top level, in schema order. */
export const PROMPT_DATA_FIELDS = Object.keys(
  PROMPT_DATA_SCHEMA.fields,
) as readonly (keyof PromptData)[];
