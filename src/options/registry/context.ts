import { isBoolean, isString } from "../checks.js";
import { option } from "../spec.js";

/** Options about context files (AGENTS.md, CLAUDE.md) and the docs pointers; entries of `OPTIONS`, in its order. */
export const CONTEXT_OPTIONS = {
  /** Skip AGENTS.md / CLAUDE.md discovery. Default: false. */
  noContextFiles: option<boolean>()({
    doc: "Skip AGENTS.md / CLAUDE.md discovery.",
    type: "boolean",
    default: "false",
    check: isBoolean,
    scenario: "noContextFiles",
    flag: {
      declare: [["--no-context-files", "skip AGENTS.md / CLAUDE.md discovery"]],
      parse: (raw) => (raw === false ? { value: true } : undefined),
    },
  }),
  /**
   * The host appends the nested AGENTS.md / CLAUDE.md below cwd to the result
   * of the tool call that first touches their folder (pi's on-touch mode,
   * `session.contextFor()`): `dir_context` then says they arrive that way
   * instead of asking the model to read them. Set it only when the host
   * delivers them. Default: false.
   */
  contextOnTouch: option<boolean>()({
    doc: "The host delivers nested AGENTS.md files with the first tool result in their folder; `dir_context` says so.",
    type: "boolean",
    default: "false",
    check: isBoolean,
    flag: {
      declare: [
        [
          "--on-touch",
          "say that deeper AGENTS.md files arrive with the first tool result in their folder (as the pi extension delivers them)",
        ],
      ],
      parse: (raw) => (raw === true ? { value: true } : undefined),
    },
  }),
  /** Documentation pointers; the docs section renders only when given. */
  docs: option<string>()({
    doc: "Documentation pointers; the docs section renders only when given.",
    type: "string",
    default: "none",
    check: isString,
    scenario: "docs",
  }),
};
