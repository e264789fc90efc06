import { isBoolean, isRecordOf, isString, varNameProblem } from "../checks.js";
import { listFlag, option, pairs } from "../spec.js";

/** Options about the settings files (`sysprompt.yaml`) and the variables templates read; entries of `OPTIONS`, in its order. */
export const CONFIG_OPTIONS = {
  /**
   * Read `sysprompt.yaml` from the agent dir and, when the project is
   * trusted, from the project folder (`.pi/sysprompt.yaml`): their values
   * apply under the options given here (an option given wins, then the
   * project's file, then the user's). The CLI and the pi extension pass true.
   * Default: false (a library render depends on its options alone).
   */
  configFiles: option<boolean>()({
    doc: "Read `sysprompt.yaml` (the agent dir's, then a trusted project's) under the options given.",
    type: "boolean",
    default: "false (the CLI: true)",
    check: isBoolean,
    flag: {
      declare: [["--no-config", "read no sysprompt.yaml (user or project)"]],
      parse: (raw) => ({ value: raw !== false }),
      // The CLI reads the files unless --no-config.
      cliDefault: true,
    },
  }),
  /**
   * Variables templates read as `{{vars.NAME}}`: names of letters, digits and
   * `_` (not starting with a digit), string values. With `configFiles`, they
   * win name by name over the files' `vars:`. Default: none.
   */
  vars: option<Readonly<Record<string, string>>>()({
    doc: "Variables templates read as `{{vars.NAME}}`; they win name by name over the files' `vars:`.",
    type: "record of strings",
    default: "none",
    check: (v) => {
      const type = isRecordOf(isString, "strings")(v);
      if (type !== undefined) return type;
      const bad = Object.keys(v as object).find((name) => varNameProblem(name) !== undefined);
      return bad === undefined
        ? undefined
        : `an object whose keys are variable names (${JSON.stringify(bad)} ${varNameProblem(bad)})`;
    },
    flag: listFlag(
      [
        [
          "--var <name=value>",
          "a variable templates read as {{vars.name}} (repeatable; beats sysprompt.yaml's vars:)",
        ],
      ],
      (raw) => pairs(raw, "NAME=value, such as --var team=payments", varNameProblem),
    ),
    // Checked entry by entry where the file is parsed, so one bad variable spares the others.
    config: {
      key: "vars",
      example: "vars:\n  team: payments",
      parse: () => ({ problem: "is checked per variable" }),
    },
  }),
};
