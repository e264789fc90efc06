import { dedupeWithDropped } from "../context/dedupe.js";
import type { Rule, RuleAccount } from "./types.js";

/** A text the prompt already holds, and how to name it in a message (a path, "the custom prompt"). */
export interface StatedText {
  label: string;
  text: string;
}

/**
 * Drops each always rule whose paragraphs occur as one contiguous run in a
 * stated text or in an always rule kept before it, and marks its account
 * `deduped` with where its text already is. The paragraph splitting,
 * normalising and containment are context-file dedupe's own
 * ({@link dedupeWithDropped}), so the two can never disagree about what
 * "the same text" is. Other activations are never dropped: a glob or model
 * rule is a pointer to its file, not text in the prompt.
 */
export function dedupeRules<T extends { rule: Rule; account: RuleAccount }>(
  entries: readonly T[],
  stated: readonly StatedText[],
): T[] {
  const always = entries.filter((e) => e.rule.activation === "always");
  if (always.length === 0) return [...entries];
  // dedupeWithDropped drops a text that a *later* one contains; so the rules
  // go first, last rule first, and the stated texts after them: each rule is
  // compared with the stated texts and with the rules kept before it.
  const key = (i: number) => `\0rule:${i}`;
  const texts = [
    ...always.map((e, i) => ({ path: key(i), content: e.rule.content })).reverse(),
    ...stated.map((s, i) => ({ path: `\0stated:${i}`, content: s.text })),
  ];
  const labels = new Map<string, string>([
    ...always.map((e, i) => [key(i), e.rule.path] as const),
    ...stated.map((s, i) => [`\0stated:${i}`, s.label] as const),
  ]);
  const dropped = new Map(dedupeWithDropped(texts).dropped.map((d) => [d.path, d.containedIn]));
  const gone = new Set<T>();
  always.forEach((e, i) => {
    const host = dropped.get(key(i));
    if (host === undefined) return;
    e.account.fate = { status: "deduped", containedIn: labels.get(host) ?? host };
    gone.add(e);
  });
  return entries.filter((e) => !gone.has(e));
}
