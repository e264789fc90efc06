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
export interface NormalizedOptions extends GatherOptions {
  now: Date;
  deadlineMs: number;
  extraSections: ExtraSection[];
  /**
   * `systemPrompt`, read (its text and, when it named a file, the file), or a
   * non-empty `resolvedSystemPrompt`.
   */
  systemPrompt: { text: string; path?: string } | null;
  /** `resolvedAppendPrompt` (when given), then every `appendSystemPrompt` value, read. */
  appendSystemPrompt: string[];
  /** The token budget, or null for none. */
  maxPromptTokens: number | null;
}
