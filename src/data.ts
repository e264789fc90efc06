/**
 * The data every section template may use. This file is the one place the
 * schema is written down: `gather` fills it, `render` reads it, and
 * `sysprompt check` validates templates against {@link PROMPT_DATA_SCHEMA}.
 * What each field holds is its `doc` there (docs/template-data.md lists them).
 */

export interface EnvironmentEntry {
  label: string;
  value: string;
}

/** Whose a context file is: the user's own (in the agent dir) or a repository's. */
export type ContextOrigin = "user" | "project";

export interface ContextFile {
  path: string;
  content: string;
  origin: ContextOrigin;
}

export interface SkillEntry {
  name: string;
  description: string;
  location: string;
  origin: ContextOrigin;
}

export interface WorkspaceTree {
  rendered: string;
  truncated: boolean;
}

/** The tree of one extra workspace root; its first line is the root's absolute path. */
export interface RootTree {
  path: string;
  rendered: string;
  truncated: boolean;
}

/** A rule file inlined in the prompt (activation `always`). */
export interface AlwaysRule {
  name: string;
  source: string;
  path: string;
  content: string;
  origin: ContextOrigin;
}

/** A rule file the model reads when it applies (activation `glob` or `model`). */
export interface OnDemandRule {
  name: string;
  source: string;
  path: string;
  activation: string;
  globs: string[];
  globsText: string;
  description: string | null;
  origin: ContextOrigin;
}

/** The branch's upstream, as `git status` tracks it. */
export interface GitUpstream {
  name: string;
  ahead: number;
  behind: number;
  gone: boolean;
}

/** The git repository the working directory is in, taken once when the prompt is gathered. */
export interface GitInfo {
  branch: string | null;
  head: string | null;
  upstream: GitUpstream | null;
  staged: number;
  unstaged: number;
  untracked: number;
  conflicted: number;
  truncated: boolean;
  commits: string[];
}

export interface ToolSnippet {
  name: string;
  description: string;
}

export interface PromptData {
  agentName: string;
  cwd: string;
  date: string;
  model: string | null;
  tools: string[];
  toolSnippets: ToolSnippet[];
  rules: string[];
  guidelines: string[];
  environment: EnvironmentEntry[];
  contextFiles: ContextFile[];
  alwaysRules: AlwaysRule[];
  onDemandRules: OnDemandRule[];
  agentsMd: string[];
  rootAgentsMd: string[];
  agentsMdTruncated: boolean;
  agentsMdLeftOut: number;
  agentsMdOnTouch: boolean;
  agentLoads: string[];
  workspaceTree: WorkspaceTree | null;
  rootTrees: RootTree[];
  roots: string[];
  skills: SkillEntry[];
  skillsTool: "read" | "bash" | null;
  appendPrompt: string;
  customPrompt: string | null;
  docs: string | null;
  git: GitInfo | null;
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
      fields: Readonly<Record<string, SchemaField>>;
      nullable?: true;
      /**
       * True for an object whose field names are given at render time (`vars`):
       * `fields` lists the names known where the template is checked, and a
       * name outside them is a warning rather than an error.
       */
      open?: true;
    };

/** A named field of an object: its shape and the one line docs/template-data.md says of it. */
export type SchemaField = SchemaNode & { doc: string };

/**
 * The schema node a TypeScript type must have. Tying {@link PROMPT_DATA_SCHEMA}
 * to {@link PromptData} through it means the two cannot drift apart: a field
 * added to the interface without its schema and its doc (or the other way
 * round) does not type-check.
 */
export type SchemaOf<T> = null extends T ? NodeOf<NonNullable<T>> & { nullable: true } : NodeOf<T>;

type FieldOf<T> = SchemaOf<T> & { doc: string };

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
              fields: Readonly<Record<string, FieldOf<T[string & keyof T]>>>;
              open: true;
            }
          : { type: "object"; fields: { [K in keyof T]-?: FieldOf<T[K]> } };

// A field's shape with its doc: `text("…")` is a string field, `texts("…")` a list of strings.
const text = (doc: string) => ({ type: "string", doc }) as const;
const nullableText = (doc: string) => ({ type: "string", nullable: true, doc }) as const;
const texts = (doc: string) => ({ type: "list", items: { type: "string" }, doc }) as const;
const flag = (doc: string) => ({ type: "boolean", doc }) as const;
const count = (doc: string) => ({ type: "number", doc }) as const;

/** The data every template sees, as {@link SchemaNode}s: what `sysprompt check` validates paths against. */
export const PROMPT_DATA_SCHEMA: SchemaOf<PromptData> = {
  type: "object",
  fields: {
    agentName: text(
      "The agent's name (the `agentName` option, else the preset's, else `a coding agent`).",
    ),
    cwd: text("The working directory, absolute, with forward slashes."),
    date: text("Today as `YYYY-MM-DD`, in UTC (`--now` pins it)."),
    model: nullableText("The model name (`--model`); null when none is given."),
    tools: texts("The selected tool names, in selection order."),
    toolSnippets: {
      type: "list",
      doc: "The selected tools that have a one-line description, in selection order.",
      items: {
        type: "object",
        fields: {
          name: text("The tool's name."),
          description: text("Its one-line description (builtin, the preset's or `--tool`'s)."),
        },
      },
    },
    rules: texts(
      "Behaviour rules: the general ones, the selected tools' and the caller's guidelines; trimmed, each once.",
    ),
    guidelines: texts(
      "The part of `rules` from the tools and the caller, without the general rules (for a section that words those its own way).",
    ),
    environment: {
      type: "list",
      doc: "Facts about the machine (operating system, architecture, CPU, terminal, time zone…), those known.",
      items: {
        type: "object",
        fields: {
          label: text("What the fact is (`Operating system`)."),
          value: text("Its value (`Linux 6.8`)."),
        },
      },
    },
    contextFiles: {
      type: "list",
      doc: "The context files (AGENTS.md, CLAUDE.md…): the agent dir's, then the folders' down to cwd, outermost first, then the extra roots'.",
      items: {
        type: "object",
        fields: {
          path: text(
            "Its path as the model sees it, absolute, with forward slashes; XML-escaped, as an element or attribute prints it: print it as it is.",
          ),
          content: text("Its text with its imports pulled in, cut at `maxContextBytes`."),
          origin: text(
            "`user` for the file in the agent dir, `project` for one found from cwd or a root.",
          ),
        },
      },
    },
    alwaysRules: {
      type: "list",
      doc: "Other agents' rule files that always apply, each once, by format, then folder (outermost first), then path.",
      items: {
        type: "object",
        fields: {
          name: text(
            "Its path below the rules folder (or its file name), without the extension; XML-escaped, as an element or attribute prints it: print it as it is.",
          ),
          source: text("The agent format it was written for (`cursor`, `claude`…)."),
          path: text(
            "Its path, absolute, with forward slashes; XML-escaped, as an element or attribute prints it: print it as it is.",
          ),
          content: text("Its text; a closing tag of the rule element in it is neutralised."),
          origin: text(
            "`user` for one of your rule folders (the agent dir's, a `user:` source's), `project` for a repository's.",
          ),
        },
      },
    },
    onDemandRules: {
      type: "list",
      doc: "Rule files the model reads when they apply: before working on files they cover (`glob`) or when their description fits (`model`).",
      items: {
        type: "object",
        fields: {
          name: text("The rule's name."),
          source: text("The agent format it was written for."),
          path: text("Its path, absolute, with forward slashes."),
          activation: text("`glob` or `model`."),
          globs: texts("The file globs it covers (empty for `model` rules)."),
          globsText: text('The globs joined by ", " (empty for `model` rules).'),
          description: nullableText(
            "Its one-line description; null when it has none or the token budget left it out.",
          ),
          origin: text(
            "`user` for one of your rule folders (the agent dir's, a `user:` source's), `project` for a repository's.",
          ),
        },
      },
    },
    agentsMd: texts("Relative paths of the AGENTS.md files deeper than cwd."),
    rootAgentsMd: texts("Absolute paths of the AGENTS.md files deeper than the extra roots."),
    agentsMdTruncated: flag(
      "True when more AGENTS.md files were found than `agentsMd` and `rootAgentsMd` list (together at most 200, the shallowest).",
    ),
    agentsMdLeftOut: count(
      "Instruction files of folders below cwd and the extra roots that are links the door does not follow there (out of the project, into a clone of its own; untrusted, to a private file): never listed in `agentsMd` or `rootAgentsMd`, the model's read tool would follow them; 0 when none.",
    ),
    agentsMdOnTouch: flag(
      "True when the host delivers the files of `agentsMd` with the first tool result in their folder (`contextOnTouch`).",
    ),
    agentLoads: texts(
      "The instruction files the agent sends the model itself (Claude Code: CLAUDE.md…), from its preset; empty for pi.",
    ),
    workspaceTree: {
      type: "object",
      nullable: true,
      doc: "The working directory's tree; null when there is none (the tree is off unless `--tree`).",
      fields: {
        rendered: text("The tree as indented lines under the working directory's name."),
        truncated: flag("True when this tree or an extra root's left entries out."),
      },
    },
    rootTrees: {
      type: "list",
      doc: "The trees of the extra roots that have one, in the order of `roots`.",
      items: {
        type: "object",
        fields: {
          path: text("The root, absolute, with forward slashes (as in `roots`)."),
          rendered: text("Its tree; the first line is the root's absolute path."),
          truncated: flag("True when the tree left entries out."),
        },
      },
    },
    roots: texts("The extra workspace roots (`--root`), absolute, with forward slashes."),
    skills: {
      type: "list",
      doc: "The skills the model may load, when a tool can read them (see `skillsTool`).",
      items: {
        type: "object",
        fields: {
          name: text(
            "The skill's name; XML-escaped, as an element or attribute prints it: print it as it is.",
          ),
          description: text(
            "When it applies, as its file writes it (one line or several; a fence it opens is closed inside `<description>`); XML-escaped, as an element or attribute prints it: print it as it is.",
          ),
          location: text(
            "The path of its file, with forward slashes; XML-escaped, as an element or attribute prints it: print it as it is.",
          ),
          origin: text(
            "`project` for a repository's skill (its `.pi/skills`, `.agents/skills`), `user` for the rest: your skill folders, paths you named, skills the host loaded.",
          ),
        },
      },
    },
    skillsTool: nullableText(
      "The tool the model loads a skill with: `read`, else `bash`; null when neither is selected.",
    ),
    appendPrompt: text(
      "APPEND_SYSTEM.md followed by every `appendSystemPrompt` value, joined by blank lines; a repository's text (a project's APPEND_SYSTEM.md, a project file named by the option) in a `<repository_append path=\"…\">` element, after a line saying the user's words win.",
    ),
    customPrompt: nullableText(
      "The custom base prompt in use (SYSTEM.md, `--system-prompt`); null when the builtin base sections apply.",
    ),
    docs: nullableText("Documentation pointers (the `docs` option); null when none."),
    git: {
      type: "object",
      nullable: true,
      doc: "The repository's state, taken once per render (`--git`); null when off, not a repository, or git is absent or slow.",
      fields: {
        branch: nullableText("The current branch; null when HEAD is detached."),
        head: nullableText("The first 12 hex digits of HEAD's commit; null before the first."),
        upstream: {
          type: "object",
          nullable: true,
          doc: "The branch's upstream as `git status` tracks it; null when it has none.",
          fields: {
            name: text("The upstream's name (`origin/main`)."),
            ahead: count("Commits on the branch that the upstream lacks (0 when `gone`)."),
            behind: count("Commits on the upstream that the branch lacks (0 when `gone`)."),
            gone: flag("True when the upstream branch no longer exists."),
          },
        },
        staged: count("Files with changes in the index."),
        unstaged: count("Files with changes in the work tree only."),
        untracked: count("Untracked files."),
        conflicted: count("Unmerged files."),
        truncated: flag(
          "True when git listed more changed paths than are read: the four counts are then lower bounds.",
        ),
        commits: texts("Subjects of the last commits (at most 5), newest first."),
      },
    },
    // The names are known only where the config files are: see `schemaWithVars`.
    vars: {
      type: "object",
      doc: "Variables by name (`{{vars.team}}`) from sysprompt.yaml's `vars:`, `--var NAME=value` and the `vars` option.",
      fields: {},
      open: true,
    },
  },
};

/** {@link PROMPT_DATA_SCHEMA} with these variable names declared (what `sysprompt check` validates against). */
export function schemaWithVars(names: Iterable<string>): SchemaOf<PromptData> {
  const fields = Object.fromEntries(
    [...names]
      .sort()
      .map((name) => [name, text("A variable that sysprompt.yaml or `--var` declares.")]),
  );
  return {
    ...PROMPT_DATA_SCHEMA,
    fields: { ...PROMPT_DATA_SCHEMA.fields, vars: { ...PROMPT_DATA_SCHEMA.fields.vars, fields } },
  };
}

/** Field names a template may reference at the top level, in schema order. */
export const PROMPT_DATA_FIELDS = Object.keys(
  PROMPT_DATA_SCHEMA.fields,
) as readonly (keyof PromptData)[];
