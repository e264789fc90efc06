import { digits, isPath, isWholeNumber } from "../checks.js";
import { configKey, option, userOnly, valueFlag } from "../spec.js";

const TOKENS = "a whole number of tokens, 1 or more, such as 8000";
const WHOLE_MS = "a whole number of milliseconds, 0 or more, such as 5000";
const isTokens = isWholeNumber(1, Number.MAX_SAFE_INTEGER, TOKENS);
const isWholeMs = isWholeNumber(0, Number.MAX_SAFE_INTEGER, WHOLE_MS);

/** Options about how the render runs: its deadline, builtin prompts, token budget and how far up it looks; entries of `OPTIONS`, in its order. */
export const RENDER_OPTIONS = {
  /**
   * Budget of the whole gathering stage in ms; every step starts at once and a
   * step still running at the deadline gives its fallback. A number ≥ 0
   * (`Infinity`: none). Default: 5000.
   */
  deadlineMs: option<number>()({
    doc: "Budget of the whole gathering stage in ms; a step still running at the deadline gives its fallback.",
    type: "ms (`Infinity`: none)",
    default: "5000",
    check: (v) =>
      typeof v === "number" && v >= 0 ? undefined : "a number of milliseconds, 0 or more",
    flag: valueFlag(
      [
        [
          "--deadline <ms>",
          "gathering budget in ms; late steps give their fallback (default: 5000)",
        ],
      ],
      isWholeMs,
      digits,
    ),
    // The deadline decides which of your files are read in time: a repository's `deadline: 1` left out
    // your AGENTS.md, rules and skills, so only you set it.
    config: userOnly(
      configKey("deadline", "deadline: 5000", isWholeMs),
      "deadline",
      "the deadline (it decides which of your files are read in time)",
      "--deadline",
    ),
  }),
  /** Builtin prompts folder (`sections/`, `partials/`, `tools.md`, `rules.md`); must hold `sections/`. Default: the package's own. */
  builtinDir: option<string>()({
    doc: "Builtin prompts folder (`sections/`, `partials/`, `tools.md`, `rules.md`); must hold `sections/`.",
    type: "path",
    default: "the package's own",
    check: isPath,
    session: "fixed",
  }),
  /**
   * Token budget of the whole prompt (estimated with the o200k_base encoding).
   * Over it, sections that declare `shrink:` steps give up text, cheapest
   * first, until it fits; the result's `budget` says what was cut. A whole
   * number, 1 or more. Default: none.
   */
  maxPromptTokens: option<number>()({
    doc: "Token budget of the whole prompt (o200k estimate): sections with `shrink:` steps give up text until it fits.",
    type: "tokens",
    default: "none",
    check: isTokens,
    scenario: "maxPromptTokens",
    flag: valueFlag(
      [
        [
          "--max-tokens <n>",
          "token budget (o200k estimate): sections with shrink steps give up text until it fits",
        ],
      ],
      isTokens,
      digits,
    ),
    // The budget decides what of your text is cut to fit: only you set it.
    config: userOnly(
      configKey("max-tokens", "max-tokens: 8000", isTokens),
      "max-tokens",
      "the token budget (it decides what of your text is cut to fit)",
      "--max-tokens",
    ),
  }),
  /**
   * No folder above this one is looked at when searching upwards: for context
   * files, for `.git` (the project root), for `.agents/skills` and for
   * `.gitignore` files (as git's GIT_CEILING_DIRECTORIES). Snapshot scenarios
   * set it to their sandbox. Default: none (up to `/`).
   */
  ceilingDir: option<string>()({
    doc: "No folder above this one is looked at when searching upwards (context files, `.git`, skills, ignores).",
    type: "path",
    default: "none (up to `/`)",
    check: isPath,
  }),
};
