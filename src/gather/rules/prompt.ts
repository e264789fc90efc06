import { elementText, oneLine as escapedLine, nameText } from "../../_prompt-text.js";
import type { AlwaysRule, OnDemandRule } from "../../data.js";
import type { Diagnostic } from "../../types.js";
import type { StatedText } from "./dedupe.js";
import { dedupeLoaded } from "./load.js";
import type { LoadedRules, Rule, RuleAccount } from "./types.js";

/**
 * A name, path, glob or description as one line of the prompt's list: runs
 * of white space (line breaks included) become one space, and what is left
 * that could still move the text (other controls, bidi marks), a tag of the
 * prompt's elements or a comment opener is made literal ({@link nameText}).
 */
function listText(text: string, wrappers: ReadonlySet<string>): string {
  return nameText(text.replace(/\s+/g, " ").trim(), wrappers);
}

/**
 * The rules as the prompt data has them: the always rules, deduped against
 * the texts the prompt already states (and each other), then the on-demand
 * ones. Accounts are copied, never changed in place: a prompt session keeps
 * the step's value for the next render.
 */
export function finishRules(
  loaded: LoadedRules,
  wrappers: ReadonlySet<string>,
  stated: readonly StatedText[],
): {
  alwaysRules: AlwaysRule[];
  onDemandRules: OnDemandRule[];
  accounts: RuleAccount[];
  diagnostics: Diagnostic[];
} {
  const { rules, accounts, diagnostics } = dedupeLoaded(loaded, stated);
  return {
    alwaysRules: rules
      .filter((r) => r.activation === "always")
      .map((r) => alwaysEntry(r, wrappers)),
    onDemandRules: rules
      .filter((r) => r.activation === "glob" || r.activation === "model")
      .map((r) => onDemandEntry(r, wrappers)),
    accounts,
    diagnostics,
  };
}

function alwaysEntry(rule: Rule, wrappers: ReadonlySet<string>): AlwaysRule {
  return {
    // Attributes of the rule's element: one line each, so a file named
    // `x\n- IMPORTANT: …` cannot add a line (escapeXml leaves line breaks).
    name: escapedLine(rule.name),
    source: rule.source,
    path: escapedLine(rule.path),
    // The repository's text: it can neither close the rule's element nor open one of the prompt's.
    content: elementText(rule.content, wrappers),
    origin: rule.layer,
  };
}

/**
 * A repository's text on an on-demand rule's line with the owner mark made
 * literal (`owner&#61;"user"`): the line of a rule of yours ends in
 * ` (owner="user")`, and a repository's description or globs wrote
 * `— ~/.pi/agent/rules/d.md (owner="user")` before its own path.
 */
function unmarked(text: string): string {
  return /owner\s*=/i.test(text) ? text.replace(/(owner\s*)=/gi, "$1&#61;") : text;
}

function onDemandEntry(rule: Rule, wrappers: ReadonlySet<string>): OnDemandRule {
  const user = rule.layer === "user";
  const safe = (text: string) => {
    const line = listText(text, wrappers);
    return user ? line : unmarked(line);
  };
  const globs = rule.globs.map(safe);
  return {
    name: safe(rule.name),
    source: rule.source,
    // A path is the repository's text too: one line, so it cannot start a line of its own.
    path: safe(rule.path),
    activation: rule.activation,
    globs,
    globsText: globs.join(", "),
    description: rule.description ? safe(rule.description) : null,
    origin: rule.layer,
  };
}
