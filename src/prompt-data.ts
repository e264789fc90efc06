import { markupAsTextTold, unreadWarning } from "./_fence.js";
import { notHomeLike, toPosix } from "./_paths.js";
import {
  AGENT_VARIABLES,
  elementText,
  lineOpeningNoBlock,
  type NameBudget,
  nameText,
  ownTagEscapedWarning,
  ownTextNames,
  valueText,
  withNameBudget,
  withoutAgentVariablesIn,
  writtenNameText,
  xmlNameText,
  xmlValueText,
} from "./_prompt-text.js";
import { escapeSpacing } from "./_text.js";
import type { ContextFile, EnvironmentEntry, GitInfo, PromptData } from "./data.js";
import { MAX_PROMPT_NAME_READ } from "./engine/limits.js";
import { buildRules, dropStatedRules, statedText } from "./gather/guidelines/guidelines.js";
import { unknownToolDiagnostics } from "./gather/guidelines/index.js";
import { buildToolSnippets, toolEntry } from "./gather/guidelines/tools.js";
import { finishRules, type LoadedRules, type RuleAccount } from "./gather/rules/index.js";
import type { BuiltWorkspace } from "./gather/tree/workspace.js";
import type { AppendPart } from "./locate/custom.js";
import type { NormalizedOptions, SystemPromptOptions } from "./options.js";
import { type CheckBudget, withCheckBudget } from "./sections/html-reading.js";
import type { CustomPrompt, RenderStop } from "./sections/render.js";
import { closedDescription, MAX_SKILLS_INDEX_BYTES, skillsForIndex } from "./skills/format.js";
import type { Skill } from "./skills/types.js";
import type { Diagnostic } from "./types.js";

export const DEFAULT_AGENT_NAME = "a coding agent";

/** What the gathering steps found, and the options: everything {@link assemblePromptData} reads. */
export interface PromptDataInputs {
  /** The render's check budget, which the appended parts spent first (rev68e F3); absent: one of its own. */
  checks?: CheckBudget;
  /** The render's meter of the name reader's work on the repository's texts, which the appended parts spent first (rev82b F2); absent: one of its own. */
  names?: NameBudget;
  options: SystemPromptOptions;
  opts: NormalizedOptions;
  customPrompt: CustomPrompt | null;
  /**
   * True when the custom base prompt in use may be a repository's: the
   * project's SYSTEM.md, or the one a host resolved itself (pi's). It then
   * never counts as the user's own text in dedupe.
   */
  customPromptRepository?: boolean;
  appendPrompt: string;
  /** The addendum's parts, each with whether a repository may have written it; absent: all of it the user's. */
  appendParts?: readonly AppendPart[];
  builtinTools: Readonly<Record<string, string>>;
  generalRules: readonly string[];
  contextFiles: readonly ContextFile[];
  /**
   * The element names the prompt's templates wrap text in: no context file or
   * rule file may open or close one of them.
   */
  wrappers: ReadonlySet<string>;
  /**
   * The names your own context files are escaped against: {@link wrappers}
   * without those only your own context files write (a repository's text may
   * not write your `AGENTS.md`'s `<team_policy>`; your file does). Absent:
   * {@link wrappers}.
   */
  userFileWrappers?: ReadonlySet<string>;
  /** What the rule-files step found, before dedupe against the texts the prompt states. */
  ruleFiles: LoadedRules;
  skills: readonly Skill[];
  skillsTool: PromptData["skillsTool"];
  environment: EnvironmentEntry[];
  /** The working directory's tree and the extra roots' (one line budget), or null without a tree. */
  tree: BuiltWorkspace | null;
  /** What the git step found (already one line per value, escaped and capped); null when off or absent. */
  git: GitInfo | null;
  /** The instruction files the agent sends itself, by name (its preset's); none for pi. */
  agentLoads?: readonly string[];
  /** The variables a project's `sysprompt.yaml` gave: the repository's values, printed as data. */
  repositoryVars?: readonly string[];
  /** The model a project's `sysprompt.yaml` gave (`model:`): the repository's value, its owner mark held. */
  repositoryModel?: boolean;
}

/**
 * The texts the prompt already states, in prompt order: a guideline or an
 * always rule that one of them contains is not repeated. Only a literal
 * custom prompt counts: a template may fail and give way to the builtin base.
 */
export function statedTexts(
  customPrompt: CustomPrompt | null,
  appendPrompt: string,
  contextFiles: readonly ContextFile[],
): (string | undefined)[] {
  return [
    customPrompt?.template ? undefined : customPrompt?.text,
    appendPrompt,
    ...contextFiles.map((f) => f.content),
  ];
}

/**
 * The data every template sees, from what was gathered, and the account of
 * every rule file (after dedupe), with what assembling found to say (a tool
 * with no description, a rule deduped). Pure: no I/O, no clock. The
 * repository's texts are checked in a fixed order to one budget
 * ({@link withCheckBudget}, rev65a F2): the render's (`checks`), when given.
 */
export function assemblePromptData(input: PromptDataInputs): {
  data: PromptData;
  rules: RuleAccount[];
  diagnostics: Diagnostic[];
} {
  // The repository's texts read to one meter too: past it, each is escaped whole (rev82b F2).
  const names = input.names ?? newNameBudget();
  const out = withCheckBudget(
    () => withNameBudget(names, () => assembleInBudget(input)),
    input.checks,
  );
  if (names.untold > 0) out.diagnostics.push(escapedWholeUntold(names.untold));
  return out;
}

/** A meter of its own for one render's texts outside its sections ({@link withNameBudget}): {@link MAX_PROMPT_NAME_READ} units, to the render's `stop` time when given (rev92b F1). */
export function newNameBudget(stop?: RenderStop): NameBudget {
  return { left: MAX_PROMPT_NAME_READ, untold: 0, ...(stop ? { stop } : {}) };
}

/** The warning for `count` of the repository's names, paths or tree lines (no file to name) escaped whole past the meter. */
function escapedWholeUntold(count: number): Diagnostic {
  return {
    level: "warning",
    code: "prompt-render-work",
    message: `${count} of the repository's names, paths or tree texts were escaped whole because of the element-name reader's cost (the render's meter of it was spent): every "<" in them (and each look-alike of one) written "&lt;"`,
  };
}

/** {@link assemblePromptData} inside its budget. */
function assembleInBudget(input: PromptDataInputs): ReturnType<typeof assemblePromptData> {
  const { options, opts, skillsTool } = input;
  const { tools } = opts;
  // The user's skills always; the repository's to a total.
  const index = skillsForIndex(input.skills);
  // The repository's text goes into the prompt as one-line paths and contents
  // that cannot open or close any element the templates write.
  const closing: Diagnostic[] = [];
  const contextFiles = input.contextFiles.map(({ path, content, origin }) => ({
    // As the element's attribute prints it: escaped in the data, so any template gets it safe;
    // the repository's with no look-alike tag of the prompt's (`＜／repository_instructions＞`).
    path: xmlNameText(path, origin === "user" ? undefined : input.wrappers),
    // Your own file is escaped without the names only your own files write (`<team_policy>`).
    // Yours is checked whatever the repository's texts left of the budget, and kept as written
    // where it cannot be closed (rev66e F2).
    content: elementText(
      content,
      origin === "user" ? (input.userFileWrappers ?? input.wrappers) : input.wrappers,
      origin === "user"
        ? {
            unread: () => closing.push(unreadWarning(path)),
            onOwnTagEscaped: (line, tag, rewrite) =>
              closing.push(ownTagEscapedWarning(path, line, tag, rewrite)),
          }
        : markupAsTextTold("context-markup-as-text", path, (d) => closing.push(d)),
    ),
    origin,
  }));
  const ruleInputs = {
    tools,
    ...(options.toolGuidelines ? { toolGuidelines: options.toolGuidelines } : {}),
    ...(options.promptGuidelines ? { promptGuidelines: options.promptGuidelines } : {}),
  };
  const statedRaw = statedTexts(input.customPrompt, input.appendPrompt, contextFiles);
  // A project's SYSTEM.md and APPEND_SYSTEM.md (or a host's, which may be the project's) are the
  // repository's text: they dedupe the repository's rules, never the user's (issue 24).
  const appended = input.appendParts ?? [{ text: input.appendPrompt, repository: false }];
  const userAppend = appended
    .filter((p) => !p.repository)
    .map((p) => p.text)
    .join("\n\n");
  const repositoryAppend = appended
    .filter((p) => p.repository)
    .map((p) => p.text)
    .join("\n\n");
  const customRepository = input.customPromptRepository === true;
  // Normalised once for both lists of rules. Only the user's texts count: a
  // repository's file that quotes a builtin or the user's rule (under "these
  // are obsolete here") must not take it out of the rules section.
  const stated = statedText(
    statedTexts(
      customRepository ? null : input.customPrompt,
      userAppend,
      contextFiles.filter((f) => f.origin === "user"),
    ),
  );
  const tree = input.tree;
  // Paths and names the repository chose, printed in lists and the tree: data, never tags.
  const name = (text: string) => nameText(text, input.wrappers);
  const rules = finishRules(
    input.ruleFiles,
    input.wrappers,
    [
      ...(statedRaw[0] !== undefined
        ? [
            {
              label: "the custom prompt",
              text: statedRaw[0],
              ...(customRepository ? { repository: true } : {}),
            },
          ]
        : []),
      ...(userAppend !== "" ? [{ label: "the appended prompt", text: userAppend }] : []),
      ...(repositoryAppend !== ""
        ? [{ label: "the appended prompt", text: repositoryAppend, repository: true }]
        : []),
      ...contextFiles.map((f) => ({
        label: f.path,
        text: f.content,
        ...(f.origin === "user" ? {} : { repository: true }),
      })),
    ],
    input.userFileWrappers,
  );
  // Values a trusted project's sysprompt.yaml or preset may set (`model:`, `agentName:`, a
  // tool's description, `vars:`) are data too: `</system> <user>` or an open `<!--` there is text.
  const value = (text: string) => valueText(text, input.wrappers);
  // Yours (`--model`, `--tool`, the options, your own file's `model:`): tags escaped, your owner mark kept (rev69a F6).
  const own = ownTextNames(input.wrappers);
  const ownValue = (text: string) => valueText(text, own);
  const data: PromptData = {
    agentName: value(options.agentName ?? DEFAULT_AGENT_NAME),
    cwd: name(toPosix(opts.shownCwd)),
    date: opts.now.toISOString().slice(0, 10),
    model:
      options.model === undefined
        ? null
        : (input.repositoryModel === true ? value : ownValue)(options.model),
    // A project's `tools:` names are names: `x</tools> <system>` is text in the list.
    tools: tools.map(name),
    toolSnippets: buildToolSnippets(tools, input.builtinTools, options.toolSnippets).map((t) => ({
      ...t,
      name: name(t.name),
      description: (toolEntry(options.toolSnippets ?? {}, t.name) === undefined ? value : ownValue)(
        t.description,
      ),
    })),
    // A rule the custom prompt, the addendum or a context file already states is not repeated.
    rules: dropStatedRules(buildRules({ ...ruleInputs, generalRules: input.generalRules }), stated),
    guidelines: dropStatedRules(buildRules(ruleInputs), stated),
    environment: input.environment,
    contextFiles,
    alwaysRules: rules.alwaysRules,
    onDemandRules: rules.onDemandRules,
    // Relative to cwd: a folder named `~` is `./~/AGENTS.md`, never read as the home's.
    // A path's leading spaces would pass for the list's indentation: `\u0020` (escapeSpacing),
    // after the name is escaped: its first escaper (oneLine) marks a literal `\u` (rev101e F4).
    agentsMd: (tree?.agentsMd ?? []).map((p) => escapeSpacing(name(notHomeLike(p)))),
    rootAgentsMd: (tree?.rootAgentsMd ?? []).map((p) => escapeSpacing(name(p))),
    agentsMdTruncated: (tree?.agentsMdOmitted ?? 0) > 0,
    agentsMdLeftOut: tree?.agentsMdLeftOut ?? 0,
    agentsMdOnTouch: options.contextOnTouch === true,
    agentLoads: [...(input.agentLoads ?? [])],
    workspaceTree: tree && {
      rendered: elementText(tree.tree.rendered, input.wrappers),
      // One line about entries left out stands for every tree the section shows.
      truncated: tree.tree.truncated || tree.roots.some((r) => r.tree?.truncated === true),
    },
    rootTrees: (tree?.roots ?? []).flatMap((r) =>
      r.tree
        ? [
            {
              path: name(toPosix(r.path)),
              rendered: elementText(r.tree.rendered, input.wrappers),
              truncated: r.tree.truncated,
            },
          ]
        : [],
    ),
    roots: opts.roots.map((r) => name(toPosix(r))),
    skills: skillsTool
      ? index.listed.map((s) => {
          // The repository's skill is its text: no tag of the prompt's elements (`＜/skills＞`).
          const held = s.source === "project" ? input.wrappers : undefined;
          return {
            // A name only warns when it breaks the Agent Skills rules: one line, as every name,
            // XML-escaped in the data as the builtin index prints it, so any template gets it safe.
            name: xmlNameText(s.name, held),
            description: lineOpeningNoBlock(xmlValueText(closedDescription(s.description), held)),
            location: xmlNameText(toPosix(s.filePath), held),
            // Budget fitting cuts a repository's skills before the user's own.
            origin: s.source === "project" ? ("project" as const) : ("user" as const),
          };
        })
      : [],
    skillsTool,
    appendPrompt: input.appendPrompt,
    // Render decides which custom prompt candidate is in use (a template may fail) and fills this.
    customPrompt: null,
    docs: options.docs ?? null,
    git: input.git && gitInsideElements(input.git, input.wrappers),
    // A project's variable goes into your own sections: its value is data, as its model's is.
    // Yours (your file's, `--var`, the `vars` option) stay as you wrote them.
    vars: varsAsData(options.vars ?? {}, new Set(input.repositoryVars), value),
  };
  return {
    data: input.wrappers.has(AGENT_VARIABLES) ? withoutAgentVariablesOf(data) : data,
    rules: rules.accounts,
    diagnostics: [
      ...unknownToolDiagnostics(tools, input.builtinTools, options.toolSnippets),
      ...rules.diagnostics,
      ...closing,
      ...(skillsTool && index.left > 0 ? [skillsIndexCut(index.left)] : []),
    ],
  };
}

/** `vars` with each value of `repository` (the names a project's file gave) as `asData` prints it. */
function varsAsData(
  vars: Readonly<Record<string, string>>,
  repository: ReadonlySet<string>,
  asData: (text: string) => string,
): Record<string, string> {
  if (repository.size === 0) return { ...vars };
  return Object.fromEntries(
    Object.entries(vars).map(([name, text]) => [name, repository.has(name) ? asData(text) : text]),
  );
}

/**
 * `data` for an agent that replaces its `${…}` variables anywhere in the
 * prompt's file (Gemini CLI, the preset's `export.substitutes`): every value
 * a template may print, a rule's name and path in its tag's attributes as
 * much as a file's text, writes them `$\{…}` (`withoutAgentVariables`). A
 * rule file `.cursor/rules/${AgentSkills}.mdc` put Gemini CLI's skills block
 * inside `<rule name="…">`. Your own texts a template prints as they are,
 * the addendum, the custom prompt and `vars`, are kept as written.
 */
function withoutAgentVariablesOf(data: PromptData): PromptData {
  const { appendPrompt, customPrompt, vars, ...values } = data;
  return { ...withoutAgentVariablesIn(values), appendPrompt, customPrompt, vars };
}

/**
 * The git values with every tag of the prompt's own elements made literal:
 * a branch may be named `x</git><rules>` and a subject may say anything, and
 * neither may end the `<git>` element or open another the prompt gives weight to.
 */
function gitInsideElements(git: GitInfo, wrappers: ReadonlySet<string>): GitInfo {
  // One line already (gitText): its literal `\u` is marked there, once (rev101e F4).
  const safe = (text: string) => writtenNameText(text, wrappers);
  return {
    ...git,
    branch: git.branch === null ? null : safe(git.branch),
    upstream: git.upstream && { ...git.upstream, name: safe(git.upstream.name) },
    commits: git.commits.map(safe),
  };
}

/** The repository's skills the index left out for its total. */
function skillsIndexCut(left: number): Diagnostic {
  return {
    level: "warning",
    code: "skills-index-cut",
    message: `${left} of the project's skills are not listed: the skills index holds at most ${MAX_SKILLS_INDEX_BYTES / (1024 * 1024)} MiB of the project's names, descriptions and locations (your own skills are always listed)`,
  };
}
