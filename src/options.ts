// The public option types: the options a caller passes (declared in
// options/registry.ts) and the same checked, with every default applied.
import type { GatherOptions } from "./gather/inputs.js";
import type { ExtraSection } from "./sections/render.js";

export type {
  OptionName,
  PreloadedSkill,
  SessionFixedOption,
  SystemPromptOptions,
} from "./options/registry.js";

/**
 * {@link SystemPromptOptions} checked and with every default applied: what
 * `preparePrompt` works from. Explicit text-or-path options are already read.
 * The gathering steps' part is {@link GatherOptions}; the rest is read by
 * locating and rendering.
 */
/** One part of the addendum, with whether a repository may have written it. */
export interface AppendPart {
  text: string;
  /**
   * True for a project's APPEND_SYSTEM.md, an appended value that named a file
   * of the project, and the one a host resolved itself (pi's, which may be the
   * project's): such a text is the repository's wherever text is judged by
   * owner. It never counts as the user's own in dedupe (quoting the user's rule
   * there does not take it out), it is escaped as a repository's text, and a
   * token budget cuts it with the repository's.
   */
  repository: boolean;
  /** The file the part was read from (absolute): a repository's is printed in its element's `path`, yours named in a warning. */
  path?: string;
  /**
   * A repository's `path` as its element prints it: escaped against the
   * render's names when the part was printed (`printedParts`, src/locate/custom.ts).
   */
  shownPath?: string;
}

export interface NormalizedOptions extends GatherOptions {
  /** The working folder as given (absolute), shown in the prompt; `cwd` is its real path. */
  shownCwd: string;
  /** The project root of `cwd` (to `ceilingDir`), when it was searched (for a host's skills) in time. */
  projectRoot?: string;
  now: Date;
  deadlineMs: number;
  extraSections: ExtraSection[];
  /**
   * `systemPrompt`, read (its text and, when it named a file, the file), or a
   * non-empty `resolvedSystemPrompt`. `repository`: a repository may have
   * written it (a file of the project, or a host's resolved one).
   */
  systemPrompt: { text: string; path?: string; repository?: true } | null;
  /**
   * `resolvedAppendPrompt` (when given), then every `appendSystemPrompt` value, read;
   * each `repository` when a repository may have written it (the host's resolved file,
   * a value naming a file of the project).
   */
  appendSystemPrompt: AppendPart[];
  /** The token budget, or null for none. */
  maxPromptTokens: number | null;
}
