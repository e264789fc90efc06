import { posix } from "node:path";
import type { Diagnostic } from "../../types.js";
import type { RuleAccount } from "./types.js";

/** Files a folder's grouped `rule-disabled` diagnostic names; explain lists every one. */
export const MAX_DISABLED_NAMED = 3;

/**
 * The diagnostic that says why a rule file found is not in the prompt, or
 * none for one that is (or is manual, which `explain` shows); an inlined rule
 * cut by paragraph dedupe says so. Dropped copies and cuts
 * are `info`; files refused, unreadable or over a cap, and your rule a
 * project's takes the place of, are warnings.
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
        fate.sameAs === path
          ? "rule not loaded again: it is a context file, loaded as one"
          : `rule not loaded again: it is the same file as ${fate.sameAs}`,
      );
    case "shadowed":
      // Your rule's text is gone and the project's stands in its place (pi's order): a warning, as
      // for every text of yours a trusted project's file takes the place of.
      return at(
        "warning",
        "user-text-left-out",
        `your rule is left out: the project's ${fate.by} of the same name takes its place (a trusted project's rule of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back`,
      );
    case "disabled":
      return at("info", "rule-disabled", `rule not loaded: ${fate.reason}`);
    case "refused":
      return fate.code === "name-not-utf8"
        ? at("warning", fate.code, fate.reason)
        : at("warning", "rule-refused", `rule file not read: ${fate.reason}`);
    case "over-cap":
      return at("warning", "rule-over-cap", `rule file not read: ${fate.reason}`);
    case "unreadable":
      return at("warning", "rule-unreadable", `rule file not read: ${fate.reason}`);
  }
}

/**
 * One `rule-disabled` info per folder for the files that folder's agent does
 * not use (a repository's `.roo/rules-{mode}` of 2,000 files is one line, not
 * 2,000): a lone file's is {@link accountDiagnostic}'s; more name their count
 * and the first {@link MAX_DISABLED_NAMED}, in the order given. Keyed by
 * folder, in the order of each folder's first file.
 */
export function disabledDiagnostics(
  disabled: readonly { path: string; reason: string }[],
): Map<string, Diagnostic> {
  const folders = new Map<string, { path: string; reason: string }[]>();
  for (const one of disabled) {
    const folder = posix.dirname(one.path);
    const group = folders.get(folder);
    if (group === undefined) folders.set(folder, [one]);
    else group.push(one);
  }
  const out = new Map<string, Diagnostic>();
  for (const [folder, group] of folders) out.set(folder, folderDiagnostic(folder, group));
  return out;
}

function folderDiagnostic(
  folder: string,
  group: readonly { path: string; reason: string }[],
): Diagnostic {
  const first = group[0];
  if (group.length === 1 && first !== undefined) {
    return {
      level: "info",
      code: "rule-disabled",
      message: `rule not loaded: ${first.reason}`,
      path: first.path,
    };
  }
  const same = group.every((g) => g.reason === first?.reason);
  const named = group
    .slice(0, MAX_DISABLED_NAMED)
    .map((g) => (same ? posix.basename(g.path) : `${posix.basename(g.path)} (${g.reason})`));
  const more = group.length - named.length;
  const list = `${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
  const message = same
    ? `${group.length} rule files not loaded: ${first?.reason}: ${list}; \`sysprompt explain\` lists each`
    : `${group.length} rule files not loaded, each for its own reason: ${list}; \`sysprompt explain\` lists each`;
  return { level: "info", code: "rule-disabled", message, path: folder };
}
