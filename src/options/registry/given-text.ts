import type { EnvironmentEntry } from "../../data.js";
import { isOneOf, isPlainObject, isString, isStringArray } from "../checks.js";
import { listFlag, option, valueFlag } from "../spec.js";

/** Options about text the caller gives in place of files: the base prompt, the appended text, sections, the environment; entries of `OPTIONS`, in its order. */
export const GIVEN_TEXT_OPTIONS = {
  /** Custom base prompt: text, or a path to a text file (`~` is `home`). Beats SYSTEM.md files. A value is a path only when spelled as one (it starts with `./`, `../`, `/`, `~/`, or, one word, contains a separator or ends in a file extension); any other is the text, never looked up; a path that names no file is an error. */
  systemPrompt: option<string>()({
    doc: "Custom base prompt: text, or a path to a text file; beats SYSTEM.md files.",
    type: "text or path",
    default: "none",
    check: isString,
    scenario: "systemPrompt",
    flag: valueFlag(
      [
        [
          "--system-prompt <text|file>",
          "replace the base sections with this text, or with the file it names (beats SYSTEM.md)",
        ],
      ],
      isString,
    ),
  }),
  /** Appended after APPEND_SYSTEM.md, each text or a path to a text file (read as for `systemPrompt`). */
  appendSystemPrompt: option<string | readonly string[]>()({
    doc: "Appended after APPEND_SYSTEM.md, each text or a path to a text file.",
    type: "text or path, or a list",
    default: "none",
    check: isOneOf(isString, isStringArray),
    scenario: "appendSystemPrompt",
    flag: listFlag([
      [
        "--append-system-prompt <text|file>",
        "append this text, or the file it names, after APPEND_SYSTEM.md (repeatable)",
      ],
    ]),
  }),
  /**
   * The custom base prompt as a host that reads SYSTEM.md itself (pi) already
   * resolved it: literal text (never a path), or `null` (or `""`) for none.
   * When given, no layer's SYSTEM.md is read; a non-empty text is the custom
   * base prompt and beats every SYSTEM_TEMPLATE.md, while `null` leaves the
   * SYSTEM_TEMPLATE.md files (which such a host does not know) in charge.
   * Not together with `systemPrompt`. Default: not given (sysprompt reads SYSTEM.md).
   */
  resolvedSystemPrompt: option<string | null>()({
    doc: "The custom base prompt as a host that reads SYSTEM.md itself resolved it (literal text, or null).",
    type: "string or null",
    default: "not given (SYSTEM.md is read)",
    check: (v) => (v === null || typeof v === "string" ? undefined : "a string or null"),
  }),
  /**
   * The appended text as a host that reads APPEND_SYSTEM.md itself (pi)
   * already resolved it, literal. When given, no layer's APPEND_SYSTEM.md is
   * read; the text (`""` for none) takes its place, before every
   * `appendSystemPrompt` value. Default: not given (sysprompt reads APPEND_SYSTEM.md).
   */
  resolvedAppendPrompt: option<string>()({
    doc: "The appended text as a host that reads APPEND_SYSTEM.md itself resolved it, literal.",
    type: "string",
    default: "not given (APPEND_SYSTEM.md is read)",
    check: isString,
  }),
  /** Named sections from code: replace a section's body in place, or add one before the volatile sections (see `ExtraSection`). */
  sections: option<Readonly<Record<string, string>>>()({
    doc: "Named sections from code: replace a section's body in place, or add one before the volatile sections.",
    type: "record of strings",
    default: "none",
    check: (v) => (isPlainObject(v) ? undefined : "an object of section name to text"),
    scenario: "sections",
  }),
  /** Replaces environment detection entirely (the model line still follows). */
  environment: option<readonly EnvironmentEntry[]>()({
    doc: "Replaces environment detection entirely (the model line still follows).",
    type: "{ label, value }[]",
    default: "detected",
    check: (v) =>
      Array.isArray(v) &&
      v.every((e) => isPlainObject(e) && typeof e.label === "string" && typeof e.value === "string")
        ? undefined
        : "an array of { label, value } strings",
    scenario: "environment",
  }),
};
