// A module of its own, beside formats.ts, so that the option checks (which
// import it) need not load the rules step.
import { didYouMean } from "../../_suggest.js";
import { RULE_SOURCE_NAMES } from "./formats.js";

/**
 * What is wrong with a list of rule sources (`has the unknown rule source
 * "cursr"; did you mean "cursor"?`), or undefined when every name is known.
 * One wording for the option, the flag and `rule-sources:`.
 */
export function ruleSourcesProblem(names: readonly string[]): string | undefined {
  const unknown = names.find((n) => !RULE_SOURCE_NAMES.includes(n));
  if (unknown === undefined) return undefined;
  const hint = didYouMean(unknown, RULE_SOURCE_NAMES);
  return `has the unknown rule source ${JSON.stringify(unknown)}; ${hint ?? `the sources are: ${RULE_SOURCE_NAMES.join(", ")}`}`;
}
