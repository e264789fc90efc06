import { isBoolean, isPath } from "../checks.js";
import { option, valueFlag } from "../spec.js";
import { userPath } from "./_common.js";

/** Options about which project the prompt is for, where its layers are, and whether it is trusted; entries of `OPTIONS`, in its order. */
export const PROJECT_OPTIONS = {
  /** Working directory; must be an existing folder, taken by its real path (shown as given). Default: `process.cwd()`. */
  cwd: option<string>()({
    doc: "Working directory: the project the prompt is for, found from its real path (the prompt shows it as given); must be an existing folder.",
    type: "path",
    default: "the current folder",
    check: isPath,
    session: "fixed",
    scenario: "cwd",
    flag: valueFlag(
      [["--cwd <dir>", "working directory (default: the current one)"]],
      isPath,
      userPath,
    ),
  }),
  /** User layer folder; when given, it must exist. Default: `$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent` (may be missing). */
  agentDir: option<string>()({
    doc: "User layer folder; when given, it must exist.",
    type: "path",
    default: "`$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent`",
    check: isPath,
    session: "fixed",
    scenario: "agentDir",
    flag: valueFlag(
      [["--agent-dir <dir>", "user layer folder (default: $SYSPROMPT_AGENT_DIR or ~/.pi/agent)"]],
      isPath,
      userPath,
    ),
  }),
  /** Name of the project layer folder under cwd. Default: `".pi"`. */
  projectDir: option<string>()({
    doc: "Name of the project layer folder under cwd.",
    type: "path",
    default: "`.pi`",
    check: isPath,
    session: "fixed",
    scenario: "projectDir",
  }),
  /** When false, project SYSTEM/APPEND/sections/skills are skipped (context files still load). Default: true. */
  projectTrusted: option<boolean>()({
    doc: "When false, the project's SYSTEM/APPEND/sections/skills/config are skipped; context files still load.",
    type: "boolean",
    default: "true",
    check: isBoolean,
    scenario: "projectTrusted",
    flag: {
      declare: [
        [
          "--untrusted",
          "treat the project as untrusted: skip its .pi layer (sections, SYSTEM/APPEND, rules, presets, sysprompt.yaml) and its skills; its context files still load",
        ],
      ],
      parse: (raw) => (raw === true ? { value: false } : undefined),
    },
  }),
};
