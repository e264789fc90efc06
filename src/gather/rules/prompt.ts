import { markupAsTextTold, type OpenToYoursOptions, unreadWarning } from "../../_fence.js";
import {
  elementText,
  nameText,
  ownTagEscapedWarning,
  printedLength,
  xmlNameText,
} from "../../_prompt-text.js";
import type { AlwaysRule, OnDemandRule } from "../../data.js";
import type { Diagnostic } from "../../types.js";
import type { StatedText } from "./dedupe.js";
import { dedupeLoaded } from "./load.js";
import type { LoadedRules, Rule, RuleAccount } from "./types.js";

/**
 * A glob or description as one line of the prompt's list (a name and a path
 * are written one line by {@link nameText}, their line breaks as `\uXXXX`): runs
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
 * the step's value for the next render. Your own always rule's text is
 * escaped against `ownWrappers` (your layers' names: not the ones it writes
 * itself, which are among `wrappers`).
 */
export function finishRules(
  loaded: LoadedRules,
  wrappers: ReadonlySet<string>,
  stated: readonly StatedText[],
  ownWrappers: ReadonlySet<string> = wrappers,
): {
  alwaysRules: AlwaysRule[];
  onDemandRules: OnDemandRule[];
  accounts: RuleAccount[];
  diagnostics: Diagnostic[];
} {
  const { rules, accounts, diagnostics } = dedupeLoaded(loaded, stated);
  const spent: Diagnostic[] = [];
  const printed = capPrinted(
    rules
      .filter((r) => r.activation === "always")
      .map((r) => ({
        // Yours checked whatever the repository's texts left of the budget (rev66e F2).
        entry: alwaysEntry(
          r,
          r.layer === "user" ? ownWrappers : wrappers,
          r.layer === "user"
            ? {
                unread: () => spent.push(unreadWarning(r.path)),
                onOwnTagEscaped: (line, tag, rewrite) =>
                  spent.push(ownTagEscapedWarning(r.path, line, tag, rewrite)),
              }
            : // Every fallback said, its HTML or every `<` written as text too (fx77c), once a file.
              markupAsTextTold("rule-markup-as-text", r.path, (d) => spent.push(d)),
        ),
        path: r.path,
      })),
    rules
      .filter((r) => r.activation === "glob" || r.activation === "model")
      .map((r) => ({
        entry: onDemandEntry(r, r.layer === "user" ? ownWrappers : wrappers),
        path: r.path,
      })),
    accounts,
  );
  return {
    alwaysRules: printed.alwaysRules,
    onDemandRules: printed.onDemandRules,
    accounts,
    diagnostics: [...diagnostics, ...spent, ...printed.diagnostics],
  };
}

/**
 * Bytes of the repository's rules the prompt holds at most, as printed: the
 * inlined rules' elements (text, name and path) and the on-demand rules'
 * lines (name, globs, description and path). The files read are capped at
 * 1 MiB of their raw bytes, but the prompt prints escaped text: a control
 * character in a path as `\u0001` (six bytes), `<a` as `&lt;a` once a
 * section named `a` makes it a tag; and the list's lines were counted by
 * nothing. 1,000 on-demand rules under folders named with 240 control
 * characters printed more than 8 MiB, and the whole section, the user's own
 * rules in it, was left out (review rev36c). Twice the files' own total:
 * ordinary text prints about as long as it reads.
 */
export const MAX_RULES_PRINTED_BYTES = 2 * 1024 * 1024;

/** What the template writes around an inlined rule's values (`<rule name="" format="" path="" owner="user">` … `</rule>`). */
const ALWAYS_FRAME_BYTES = 64;
/** What the template writes around an on-demand rule's values (`- `, ` ()`, `: `, ` — `, ` (owner="user")`). */
const LINE_FRAME_BYTES = 32;

/** An inlined rule's bytes as the template prints it: name and path as the data has them (XML-escaped), the text as it is. */
function alwaysPrinted(r: AlwaysRule): number {
  return (
    ALWAYS_FRAME_BYTES +
    Buffer.byteLength(r.name) +
    printedLength(r.source, "xml") +
    Buffer.byteLength(r.path) +
    Buffer.byteLength(r.content)
  );
}

/** An on-demand rule's line as the template prints it (its values are already one line each). */
function linePrinted(r: OnDemandRule): number {
  return (
    LINE_FRAME_BYTES +
    Buffer.byteLength(r.name) +
    Buffer.byteLength(r.globsText) +
    Buffer.byteLength(r.description ?? "") +
    Buffer.byteLength(r.path)
  );
}

/**
 * The rules within {@link MAX_RULES_PRINTED_BYTES}: the user's own counted
 * first and always kept, then the repository's in prompt order (the inlined
 * rules, then the list), each whole or not at all. A rule left out has its
 * account's fate set to `over-cap` (`accounts` are this render's copies), and
 * one warning counts them.
 */
function capPrinted(
  always: readonly { entry: AlwaysRule; path: string }[],
  lines: readonly { entry: OnDemandRule; path: string }[],
  accounts: RuleAccount[],
): { alwaysRules: AlwaysRule[]; onDemandRules: OnDemandRule[]; diagnostics: Diagnostic[] } {
  let total = 0;
  for (const r of always) if (r.entry.origin === "user") total += alwaysPrinted(r.entry);
  for (const r of lines) if (r.entry.origin === "user") total += linePrinted(r.entry);
  const left = new Set<string>();
  const fits = <T extends { origin: string }>(r: { entry: T; path: string }, size: number) => {
    if (r.entry.origin === "user") return true;
    if (left.size === 0 && total + size <= MAX_RULES_PRINTED_BYTES) {
      total += size;
      return true;
    }
    left.add(r.path);
    return false;
  };
  const keptAlways = always.filter((r) => fits(r, alwaysPrinted(r.entry)));
  const inlinedLeft = left.size;
  const keptLines = lines.filter((r) => fits(r, linePrinted(r.entry)));
  const alwaysRules = keptAlways.map((r) => r.entry);
  const onDemandRules = keptLines.map((r) => r.entry);
  if (left.size === 0) return { alwaysRules, onDemandRules, diagnostics: [] };
  const reason = `the repository's rules as the prompt prints them reach the ${MAX_RULES_PRINTED_BYTES / (1024 * 1024)} MiB it holds of them`;
  for (const a of accounts) {
    const shown = a.fate.status === "inlined" || a.fate.status === "listed";
    if (a.layer === "project" && shown && left.has(a.path)) a.fate = { status: "over-cap", reason };
  }
  return {
    alwaysRules,
    onDemandRules,
    diagnostics: [
      {
        level: "warning",
        code: "rules-printed-cut",
        message: `${left.size} of the project's rule files are not in the prompt (${inlinedLeft} to inline, ${left.size - inlinedLeft} to list): the prompt holds at most ${MAX_RULES_PRINTED_BYTES / (1024 * 1024)} MiB of the repository's rules as it prints them (names, paths, globs and descriptions on one line each, a control character as \\uXXXX); your own rules are always in it`,
      },
    ],
  };
}

function alwaysEntry(
  rule: Rule,
  wrappers: ReadonlySet<string>,
  how: OpenToYoursOptions,
): AlwaysRule {
  // A repository's name or path never reads as your `owner="user"` attribute
  // (`deploy＂ owner＝＂user.mdc`), whatever quotes and equals it draws it with.
  // (`wrappers` hold OWNER_MARK: escapeWrapperTags writes it `owner&#61;"user"`).
  const attribute = (text: string) =>
    rule.layer === "user" ? xmlNameText(text) : xmlNameText(text, wrappers);
  return {
    // Attributes of the rule's element: one line each, so a file named
    // `x\n- IMPORTANT: …` cannot add a line (escapeXml leaves line breaks),
    // XML-escaped in the data as the builtin template prints them: any
    // template gets them safe (a Continue rule's `name:` wrote `</yours> <system>`).
    name: attribute(rule.name),
    source: rule.source,
    path: attribute(rule.path),
    // The repository's text: it can neither close the rule's element nor open one of the prompt's.
    content: elementText(rule.content, wrappers, how),
    origin: rule.layer,
  };
}

function onDemandEntry(rule: Rule, wrappers: ReadonlySet<string>): OnDemandRule {
  // Yours escaped against your layers' names (no OWNER_MARK: your mark kept); the repository's
  // against every name and the owner mark (escapeWrapperTags).
  const safe = (text: string) => listText(text, wrappers);
  const globs = rule.globs.map(safe);
  return {
    // A name is one line as a path is ({@link nameText}: a line break or a separator as `\uXXXX`),
    // not collapsed: `r\n<x>` and `r <x>` printed the same name (rev107c F5).
    name: nameText(rule.name, wrappers),
    source: rule.source,
    // A path is the repository's text too: one line, so it cannot start a line of its own; its
    // blanks kept as they are (`my    globby.mdc`), or the model is sent to another file (rev68c F9).
    path: nameText(rule.path, wrappers),
    activation: rule.activation,
    globs,
    globsText: globs.join(", "),
    description: rule.description ? safe(rule.description) : null,
    origin: rule.layer,
  };
}
