import { dedupeParagraphs } from "../_paragraphs.js";
import type { Rule, RuleAccount } from "./types.js";

/** A text the prompt already holds, and how to name it in a message (a path, "the custom prompt"). */
export interface StatedText {
  label: string;
  text: string;
}

/**
 * Always rules without the paragraphs that a stated text (the custom and
 * appended prompt, the context files: they outrank every rule) or an always
 * rule kept before it already states. A rule keeps its own paragraphs, with
 * a marker line where the others stood, and its account says how many went
 * and where they are (`trimmed`); a rule with nothing of its own is dropped
 * and its account is `deduped`. The paragraph splitting, comparing and
 * markers are context-file dedupe's own (`gather/_paragraphs.ts`), so the two never
 * disagree about what "the same text" is. Other activations are never
 * touched: a glob or model rule is a pointer to its file, not text in the
 * prompt. Returns the entries kept, with the trimmed rules' content replaced.
 */
export function dedupeRules<T extends { rule: Rule; account: RuleAccount }>(
  entries: readonly T[],
  stated: readonly StatedText[],
): T[] {
  const always = entries.filter((e) => e.rule.activation === "always");
  if (always.length === 0) return [...entries];
  const outcomes = dedupeParagraphs([
    ...stated.map((s) => ({ label: s.label, text: s.text, fixed: true })),
    ...always.map((e) => ({ label: e.rule.path, text: e.rule.content })),
  ]).slice(stated.length);
  const changed = new Map<T, T | undefined>();
  always.forEach((e, i) => {
    const outcome = outcomes[i];
    if (!outcome || outcome.left === 0) return;
    if (outcome.whole) {
      e.account.fate = { status: "deduped", containedIn: outcome.statedIn.join(", ") };
      changed.set(e, undefined);
      return;
    }
    e.account.trimmed = { paragraphs: outcome.left, statedIn: outcome.statedIn };
    changed.set(e, { ...e, rule: { ...e.rule, content: outcome.text } });
  });
  return entries.flatMap((e) => {
    if (!changed.has(e)) return [e];
    const replaced = changed.get(e);
    return replaced ? [replaced] : [];
  });
}
