import { createHash } from "node:crypto";
import { CACHE_CLASSES, type CacheClass } from "../../sections/types.js";
import type { TokenCounter } from "../../tokens.js";

export { CACHE_CLASSES, type CacheClass };

/** A rendered prompt as the comparison needs it. */
export interface Rendition {
  text: string;
  sections: readonly { name: string; text: string }[];
}

/** Bytes and tokens of one class: in the baseline, and of those the prefix kept. */
export interface ClassShare {
  bytes: number;
  tokens: number;
  keptBytes: number;
  keptTokens: number;
}

/** Where a render first differs from the baseline, by section. */
export interface Break {
  /** The section: the baseline's when it changed or went, the new render's when it was added. */
  section: string;
  cache: CacheClass;
  how: "changed" | "added" | "removed";
}

/** How much of the baseline's prefix a render keeps. */
export interface Survival {
  /** The common byte prefix (UTF-8), cut back to a whole character. */
  bytes: number;
  /** Tokens of that prefix (an estimate). */
  tokens: number;
  /** `tokens` over the baseline's tokens, 0 to 1. */
  share: number;
  /** null: the render is byte for byte the baseline. */
  brokenAt: Break | null;
  byClass: Record<CacheClass, ClassShare>;
}

/** A section as a baseline keeps it: its name and a digest of its text. */
export interface SectionMark {
  name: string;
  digest: string;
}

/**
 * The baseline, measured once: every other render is compared with it. It
 * keeps the prompt's bytes and a digest of each section, not the render's
 * strings: a prompt of 8 MiB of sections with one non-Latin-1 character is
 * 16 MB of text and 16 MB of sections.
 */
export interface Baseline {
  sections: SectionMark[];
  bytes: Buffer;
  tokens: number;
  /** Class, byte offset and tokens of each section of the baseline, in order. */
  parts: { name: string; cache: CacheClass; start: number; bytes: number; tokens: number }[];
}

export function measureBaseline(
  rendition: Rendition,
  classOf: (name: string) => CacheClass,
  count: TokenCounter,
): Baseline {
  const bytes = Buffer.from(rendition.text, "utf8");
  const parts: Baseline["parts"] = [];
  let from = 0;
  for (const section of rendition.sections) {
    // The text is the sections joined; a search keeps this right whatever joins them.
    const at = rendition.text.indexOf(section.text, from);
    const start = at < 0 ? bytes.length : Buffer.byteLength(rendition.text.slice(0, at), "utf8");
    const size = Buffer.byteLength(section.text, "utf8");
    parts.push({
      name: section.name,
      cache: classOf(section.name),
      start,
      bytes: size,
      tokens: count(section.text),
    });
    if (at >= 0) from = at + section.text.length;
  }
  const sections = rendition.sections.map((s) => ({ name: s.name, digest: digest(s.text) }));
  return { sections, bytes, tokens: count(rendition.text), parts };
}

/** What `next` keeps of the baseline's prefix, per class, and which section broke it. */
export function survival(
  base: Baseline,
  next: Rendition,
  classOf: (name: string) => CacheClass,
  count: TokenCounter,
): Survival {
  const kept = commonPrefix(base.bytes, Buffer.from(next.text, "utf8"));
  const prefix = base.bytes.subarray(0, kept).toString("utf8");
  const tokens = kept === base.bytes.length ? base.tokens : count(prefix);
  const byClass = Object.fromEntries(
    CACHE_CLASSES.map((c) => [c, { bytes: 0, tokens: 0, keptBytes: 0, keptTokens: 0 }]),
  ) as Record<CacheClass, ClassShare>;
  for (const part of base.parts) {
    const share = byClass[part.cache];
    share.bytes += part.bytes;
    share.tokens += part.tokens;
    const keptBytes = Math.max(0, Math.min(part.bytes, kept - part.start));
    share.keptBytes += keptBytes;
    share.keptTokens +=
      keptBytes === part.bytes
        ? part.tokens
        : keptBytes === 0
          ? 0
          : count(base.bytes.subarray(part.start, part.start + keptBytes).toString("utf8"));
  }
  return {
    bytes: kept,
    tokens,
    share: base.tokens === 0 ? 1 : tokens / base.tokens,
    brokenAt: firstBreak(base.sections, next, classOf),
    byClass,
  };
}

/** Length of the common prefix of two UTF-8 texts, cut back to a character boundary. */
export function commonPrefix(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return i;
  // Back off continuation bytes (10xxxxxx): a character that differs is not kept in part.
  while (i > 0 && ((a[i] ?? 0) & 0xc0) === 0x80) i--;
  return i;
}

/** The first section, in prompt order, whose name or text differs; null when none does. */
function firstBreak(
  base: readonly SectionMark[],
  next: Rendition,
  classOf: (name: string) => CacheClass,
): Break | null {
  const length = Math.max(base.length, next.sections.length);
  for (let i = 0; i < length; i++) {
    const was = base[i];
    const is = next.sections[i];
    if (was && is && was.name === is.name && was.digest === digest(is.text)) continue;
    if (was && is && was.name === is.name) return at(was.name, "changed", classOf);
    // A section the baseline has further on is still there: the new render's one was added.
    const added = is && (!was || base.slice(i).some((s) => s.name === is.name) === false);
    if (is && added) return at(is.name, "added", classOf);
    if (was) return at(was.name, "removed", classOf);
  }
  return null;
}

function at(section: string, how: Break["how"], classOf: (name: string) => CacheClass): Break {
  return { section, cache: classOf(section), how };
}

/** A section's text as a baseline keeps it: SHA-256, so two texts that differ never compare equal. */
function digest(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64");
}
