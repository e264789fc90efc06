import { isName, isString } from "../checks.js";
import { nameKey, option, valueFlag } from "../spec.js";

/** Options about which agent the prompt is for: its preset, mode and name; entries of `OPTIONS`, in its order. */
export const AGENT_OPTIONS = {
  /** The agent's name in the preamble. Default: the preset's name for its agent, else `"a coding agent"`. */
  agentName: option<string>()({
    doc: "The agent's name in the preamble.",
    type: "string",
    default: "the preset's name for its agent, else `a coding agent`",
    check: isString,
    scenario: "agentName",
  }),
  /**
   * The agent the prompt is for: a preset (`prompts/agents/<name>.yaml`, which
   * `<agentDir>/agents/` and a trusted project's `.pi/agents/` override key by
   * key) gives the agent's own tools and their descriptions (used unless
   * `tools` / `toolSnippets` say otherwise), the preamble's name (unless
   * `agentName` is given), and the instruction files the agent loads itself,
   * which are then left out. Builtin: `pi`, `claude-code`, `codex`,
   * `gemini-cli`, `opencode`. A name no layer has throws a SyspromptError.
   * Default: `"pi"` (the builtin prompt as it is).
   */
  agent: option<string>()({
    doc: "The agent the prompt is for: a preset's name (`pi`, `claude-code`, `codex`, `gemini-cli`, `opencode`, or your own).",
    type: "string",
    default: "`pi`",
    check: isName('a preset name such as "codex"'),
    scenario: "agent",
    flag: valueFlag(
      [
        [
          "--agent <name>",
          "the agent the prompt is for: pi (default), claude-code, codex, gemini-cli, opencode, or a preset of your own",
        ],
      ],
      isString,
    ),
    config: nameKey("agent", "agent: claude-code", "an agent's name, such as claude-code"),
  }),
  /**
   * The agent's mode, for a preset whose tools change with it (Gemini CLI's approval
   * mode: `default`, `auto_edit`, `yolo`, `plan`): it picks the preset's `toolSets` entry
   * whose `modes` name it, as `model` picks one by its `models` globs. Default: none
   * (the preset's plain `tools`).
   */
  agentMode: option<string>()({
    doc: "The agent's mode, for a preset whose tools change with it (gemini-cli: `default`, `auto_edit`, `yolo`, `plan`); a mode the preset does not name is refused.",
    type: "string",
    default: "none (the preset's plain tools)",
    check: isName('a mode name such as "yolo"'),
    flag: valueFlag(
      [
        [
          "--agent-mode <name>",
          "the agent's mode where its tools change with it (gemini-cli: default, auto_edit, yolo, plan)",
        ],
      ],
      isString,
    ),
    config: nameKey("agent-mode", "agent-mode: yolo", "a mode name, such as yolo"),
  }),
};
