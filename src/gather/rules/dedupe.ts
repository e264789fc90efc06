import { dedupeParagraphs } from "../_paragraphs.js";
import type { Rule, RuleAccount } from "./types.js";

/** A text the prompt already holds, and how to name it in a message (a path, "the custom prompt"). */
export interface StatedText {
  label: string;
  text: string;
  /**
   * True for a repository's text (a project context file, SYSTEM.md or APPEND_SYSTEM.md, or a
   * host's, which may be the project's): it outranks the
   * project's rules, never the user's. Absent: the user's or the caller's
   * own text (the custom and appended prompt, the user's context file).
   */
  repository?: boolean;
}

/**
 * Always rules without the paragraphs that a more authoritative text
 * already states: for the user's rules, the user's texts (the custom and
 * appended prompt, the user's context file) and the user's rules before it;
 * for the project's rules, those and the repository's context files and the
 * project's rules before it. A repository's text never leaves out a
 * paragraph of the user's rule. A rule keeps its own paragraphs, with
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
  // A rule that is a context file the prompt holds (`AGENTS.md` that `context.fileName` names
  // too) is that file, not a copy of it: not read again, and never said to repeat itself (rev104a F5).
  const labels = new Set(stated.map((s) => s.label));
  const same = entries.filter((e) => labels.has(e.rule.path));
  for (const e of same) e.account.fate = { status: "duplicate", sameAs: e.rule.path };
  if (same.length > 0)
    return dedupeRules(
      entries.filter((e) => !same.includes(e)),
      stated,
    );
  const always = entries.filter((e) => e.rule.activation === "always");
  if (always.length === 0) return [...entries];
  // Authority first: the user's texts and the user's own rules, then the
  // repository's texts and rules. A repository's copy of the user's rule is
  // the one left out, never the user's rule (the prompt order stays as loaded).
  const fixed = (s: StatedText) => ({ label: s.label, text: s.text, fixed: true });
  const userRules = always.filter((e) => e.rule.layer === "user");
  const projectRules = always.filter((e) => e.rule.layer !== "user");
  const userStated = stated.filter((s) => s.repository !== true);
  const repositoryStated = stated.filter((s) => s.repository === true);
  const all = dedupeParagraphs([
    ...userStated.map(fixed),
    ...userRules.map((e) => ({ label: e.rule.path, text: e.rule.content })),
    ...repositoryStated.map(fixed),
    ...projectRules.map((e) => ({ label: e.rule.path, text: e.rule.content })),
  ]);
  const byEntry = new Map<T, (typeof all)[number] | undefined>();
  const projectFrom = userStated.length + userRules.length + repositoryStated.length;
  for (const [i, e] of userRules.entries()) byEntry.set(e, all[userStated.length + i]);
  for (const [i, e] of projectRules.entries()) byEntry.set(e, all[projectFrom + i]);
  const outcomes = always.map((e) => byEntry.get(e));
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
