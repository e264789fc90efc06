import { ruleSourcesProblem } from "../../gather/rules/rule-sources.js";
import { isPath, isPlainObject, isStringArray, isWholeNumber, nameList } from "../checks.js";
import { option } from "../spec.js";

/** Options about what is read into the prompt: the context files' cap, other agents' rule files, skills; entries of `OPTIONS`, in its order. */
export const RULES_SKILLS_OPTIONS = {
  /**
   * Cap of each context file and each `@import`, in bytes; a larger one is cut at a UTF-8
   * boundary and ends with a marker line saying how much was left out. Default: 262144 (256 KiB).
   */
  maxContextBytes: option<number>()({
    doc: "Cap of each context file and each `@import`, in bytes; a larger one is cut with a marker line.",
    type: "bytes",
    default: "262144 (256 KiB)",
    check: isWholeNumber(1, Number.MAX_SAFE_INTEGER, "a whole number of bytes, 1 or more"),
    scenario: "maxContextBytes",
  }),
  /**
   * Which agents' rule files to read: format names (`cursor`, `windsurf`,
   * `cline`, `copilot`, `claude`, `gemini`, `kiro`, `roo`, `continue`, `zed`,
   * `sysprompt`) and `user:<format>` for another agent's user-level folder
   * (`user:claude` = `~/.claude/rules`, `user:windsurf`, `user:copilot`,
   * `user:kiro`, `user:roo`); `[]` reads none. Default: every format at
   * project level and sysprompt's own (`<agentDir>/rules`, `.pi/rules`), no
   * other agent's user-level folder. An unknown name throws a SyspromptError.
   */
  ruleSources: option<readonly string[]>()({
    doc: "Which agents' rule files to read: format names, and `user:<format>` for another agent's user folder.",
    type: "string[]",
    default: "every format at project level, and sysprompt's own",
    check: isStringArray,
    config: {
      key: "rule-sources",
      example: "rule-sources: [cursor, claude]",
      parse: (v) => {
        const names = nameList(v, "rule source names");
        if ("problem" in names) return names;
        const problem = ruleSourcesProblem(names.value);
        return problem === undefined ? { value: [...new Set(names.value)] } : { problem };
      },
      // Another agent's user-level folder is the user's own files: a repository cannot pull them into the prompt.
      project: {
        yours: "`user:…`",
        refuse: (names) => {
          const home = names.filter((n) => n.startsWith("user:"));
          return home.length === 0
            ? undefined
            : {
                code: "config-project-user-rules",
                message: `rule-sources: ${home.join(", ")} left out: a project's file cannot read your own folders (another agent's user-level rules); name them in the agent dir's sysprompt.yaml (or the ruleSources option)`,
                keep: names.filter((n) => !n.startsWith("user:")),
              };
        },
      },
    },
  }),
  /** Skill folders or files searched before the default ones. */
  skillPaths: option<readonly string[]>()({
    doc: "Skill folders or files searched before the default ones.",
    type: "path[]",
    default: "none",
    check: isStringArray,
    scenario: "skillPaths",
  }),
  /**
   * Skills the caller already loaded, in the order to list them: the skills
   * step does not run (`skillPaths` is then unused) and this list is the
   * `skills` section's, minus those with `disableModelInvocation: true`. Extra
   * fields are ignored, so a host's own skill objects (pi's) pass as they are.
   * Default: not given (skills are discovered).
   */
  skills: option<readonly PreloadedSkill[]>()({
    doc: "Skills the caller already loaded, in order: the skills step does not run.",
    type: "{ name, description, filePath }[]",
    default: "not given (skills are discovered)",
    check: (v) =>
      Array.isArray(v) &&
      v.every(
        (s) =>
          isPlainObject(s) &&
          typeof s.name === "string" &&
          typeof s.description === "string" &&
          isPath(s.filePath) === undefined &&
          (s.disableModelInvocation === undefined || typeof s.disableModelInvocation === "boolean"),
      )
        ? undefined
        : "an array of { name, description, filePath, disableModelInvocation? } (strings; a boolean)",
  }),
};

/** A skill the caller loaded itself (the `skills` option). */
export interface PreloadedSkill {
  name: string;
  description: string;
  /** Path of the skill's file, as the model should open it. */
  filePath: string;
  /** True: left out of the prompt (the skill is only invoked by the user). Default: false. */
  disableModelInvocation?: boolean;
}
