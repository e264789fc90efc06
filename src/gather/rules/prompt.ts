import type { AlwaysRule, OnDemandRule } from "../../data.js";
import type { Diagnostic } from "../../types.js";
import type { StatedText } from "./dedupe.js";
import { dedupeLoaded } from "./load.js";
import type { LoadedRules, Rule, RuleAccount } from "./types.js";

/**
 * A closing tag of the elements the rules section opens (`</rule>`,
 * `</project_rules>`), in any case and spacing. A rule file's text is the
 * repository's: it must not be able to end the element sysprompt opened and
 * write what looks like sysprompt's own text after it.
 */
const RULE_CLOSER = /<\/(\s*)(project_rules|rule)(?=[\s>/]|$)/gi;

/**
 * `text` with every closing tag of a rule element neutralised as `<\/rule`:
 * still readable, no longer a closing tag. (Context files need the same for
 * their own element; the two are to become one function.)
 */
export function neutraliseRuleClosers(text: string): string {
  return text.replace(RULE_CLOSER, (_, space: string, name: string) => `<\\/${space}${name}`);
}

/** One line: runs of white space (line breaks included) become one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The rules as the prompt data has them: the always rules, deduped against
 * the texts the prompt already states (and each other), then the on-demand
 * ones. Accounts are copied, never changed in place: a prompt session keeps
 * the step's value for the next render.
 */
export function finishRules(
  loaded: LoadedRules,
  stated: readonly StatedText[],
): {
  alwaysRules: AlwaysRule[];
  onDemandRules: OnDemandRule[];
  accounts: RuleAccount[];
  diagnostics: Diagnostic[];
} {
  const { rules, accounts, diagnostics } = dedupeLoaded(loaded, stated);
  return {
    alwaysRules: rules.filter((r) => r.activation === "always").map(alwaysEntry),
    onDemandRules: rules
      .filter((r) => r.activation === "glob" || r.activation === "model")
      .map(onDemandEntry),
    accounts,
    diagnostics,
  };
}

function alwaysEntry(rule: Rule): AlwaysRule {
  return {
    name: rule.name,
    source: rule.source,
    path: rule.path,
    content: neutraliseRuleClosers(rule.content),
  };
}

function onDemandEntry(rule: Rule): OnDemandRule {
  const globs = rule.globs.map((g) => neutraliseRuleClosers(oneLine(g)));
  return {
    name: neutraliseRuleClosers(oneLine(rule.name)),
    source: rule.source,
    // A path is the repository's text too: one line, so it cannot start a line of its own.
    path: neutraliseRuleClosers(oneLine(rule.path)),
    activation: rule.activation,
    globs,
    globsText: globs.join(", "),
    description: rule.description ? neutraliseRuleClosers(oneLine(rule.description)) : null,
  };
}
