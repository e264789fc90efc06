import { showsNothing } from "../../_prompt-text.js";
import { isName, isNameArray, isRecordOf, isString, isStringArray, nameList } from "../checks.js";
import { listFlag, nameKey, option, toolPairs, valueFlag } from "../spec.js";

/** Options about the model, its tools and the rules the caller adds; entries of `OPTIONS`, in its order. */
export const TOOL_OPTIONS = {
  /**
   * Model name, stated in the environment section; it also chooses per-model
   * section variants (`rules@small.md`, whose `models:` globs match it).
   * Default: none (plain section files only).
   */
  model: option<string>()({
    doc: "Model name: stated in the environment section; it picks per-model variants (`rules@small.md`).",
    type: "string",
    default: "none",
    check: isString,
    scenario: "model",
    flag: valueFlag(
      [
        [
          "--model <name>",
          "model name: stated in the environment section, and it picks per-model variants (rules@small.md)",
        ],
      ],
      // An empty value (a wrapper's unset `--model "$MODEL"`) is refused, not taken as no model (rev68d F5).
      isName("a model name, such as claude-sonnet-4"),
    ),
    config: nameKey("model", "model: gpt-5", "a model name"),
  }),
  /** Selected tool names, in order (an array, not a comma-separated string). Default: read, bash, edit, write. A name nothing describes gets an info diagnostic. */
  tools: option<readonly string[]>()({
    doc: "Selected tool names, in order; a name nothing describes gets an info diagnostic.",
    type: "string[]",
    default: "the agent's own (pi: read, bash, edit, write)",
    check: isNameArray,
    scenario: "tools",
    flag: {
      declare: [
        [
          "--tools <a,b>",
          "selected tools, comma-separated (default: the agent's own; pi: read,bash,edit,write)",
        ],
      ],
      parse: (raw) => ({
        value: (raw as string)
          .split(",")
          .map((t) => t.trim())
          .filter((t) => t !== ""),
      }),
    },
    config: {
      key: "tools",
      example: "tools: [read, bash, edit, write]",
      parse: (v) => nameList(v, "tool names"),
    },
  }),
  /** One-line tool descriptions that add to or replace the builtin ones; `""` hides a tool. */
  toolSnippets: option<Readonly<Record<string, string>>>()({
    doc: 'One-line tool descriptions that add to or replace the builtin ones; `""` hides a tool.',
    type: "record of strings",
    default: "none",
    check: isRecordOf(isString, "strings"),
    scenario: "toolSnippets",
    flag: listFlag(
      [
        [
          "--tool <name=text>",
          "a tool's one-line description, added or replacing the builtin one; an empty text hides the tool (repeatable)",
        ],
      ],
      toolPairs,
    ),
  }),
  /** Guidelines per tool, added to the rules when the tool is selected. */
  toolGuidelines: option<Readonly<Record<string, readonly string[]>>>()({
    doc: "Guidelines per tool, added to the rules when the tool is selected.",
    type: "record of string[]",
    default: "none",
    check: isRecordOf(isStringArray, "arrays of strings"),
    scenario: "toolGuidelines",
  }),
  /** The caller's own rules, added after tool guidelines and before the general rules. */
  promptGuidelines: option<readonly string[]>()({
    doc: "The caller's own rules, added after tool guidelines and before the general rules.",
    type: "string[]",
    default: "none",
    check: isStringArray,
    scenario: "promptGuidelines",
    // A blank rule (`--guideline "$RULE"` unset) is refused, not dropped without a word (rev68d F5):
    // blank as a blank `--model` is, `showsNothing`, so U+200B, U+2060 or U+00AD alone too (rev71d F3).
    flag: listFlag<readonly string[]>(
      [["--guideline <text>", "add a rule to the rules section (repeatable)"]],
      (raw) => {
        const blank = raw.find(showsNothing);
        return blank === undefined
          ? { value: raw }
          : { problem: `expects a rule's text, got ${JSON.stringify(blank)}` };
      },
    ),
  }),
};
