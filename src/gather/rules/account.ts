import type { Diagnostic } from "../../types.js";
import type { RuleAccount } from "./types.js";

/**
 * The diagnostic that says why a rule file found is not in the prompt, or
 * none for one that is (or is manual, which `explain` shows); an inlined rule
 * cut by paragraph dedupe says so. Dropped copies and cuts
 * are `info`; files refused, unreadable or over a cap are warnings.
 */
export function accountDiagnostic(account: RuleAccount): Diagnostic | undefined {
  const { fate, path } = account;
  const at = (level: Diagnostic["level"], code: string, message: string): Diagnostic => ({
    level,
    code,
    message,
    path,
  });
  switch (fate.status) {
    case "inlined":
      return account.trimmed
        ? at(
            "info",
            "rule-paragraphs-left-out",
            `${account.trimmed.paragraphs === 1 ? "1 paragraph" : `${account.trimmed.paragraphs} paragraphs`} left out, with a marker line: already stated in ${account.trimmed.statedIn.join(", ")}`,
          )
        : undefined;
    case "listed":
    case "manual":
      return undefined;
    case "deduped":
      return at(
        "info",
        "rule-duplicate",
        `rule not inlined: every paragraph of it is already stated in ${fate.containedIn}`,
      );
    case "duplicate":
      return at(
        "info",
        "rule-same-file",
        `rule not loaded again: it is the same file as ${fate.sameAs}`,
      );
    case "shadowed":
      return at(
        "info",
        "rule-shadowed",
        `rule not loaded: the project's rule of the same name wins (${fate.by})`,
      );
    case "disabled":
      return at("info", "rule-disabled", `rule not loaded: ${fate.reason}`);
    case "refused":
      return at("warning", "rule-refused", `rule file not read: ${fate.reason}`);
    case "over-cap":
      return at("warning", "rule-over-cap", `rule file not read: ${fate.reason}`);
    case "unreadable":
      return at("warning", "rule-unreadable", `rule file not read: ${fate.reason}`);
  }
}
