import { toPosix } from "../../_paths.js";
import { type Reach, readRepoCapped } from "../../repo-files/index.js";
import type { Diagnostic } from "../../types.js";
import { cutMarker } from "../capped-read.js";
import { accountDiagnostic } from "./account.js";
import { findRuleFiles } from "./discover.js";
import { DEFAULT_RULE_SOURCES, formatWanted, RULE_FORMATS, type RuleFormat } from "./formats.js";
import { toRule } from "./load.js";
import type { Rule, RuleFate } from "./types.js";

/**
 * The project formats, each with only its locations an agent also finds in
 * folders below cwd (`belowCwd`), under the chosen sources. `sources` may
 * come from a session file a hook kept: anything but a list of strings is
 * the default.
 */
export function belowCwdFormats(sources: unknown): RuleFormat[] {
  const names =
    Array.isArray(sources) && sources.every((s) => typeof s === "string")
      ? sources
      : DEFAULT_RULE_SOURCES;
  const wanted = new Set<string>(names);
  return RULE_FORMATS.filter((f) => f.scope === "project" && formatWanted(f, wanted))
    .map((f) => ({ ...f, locations: f.locations.filter((l) => l.belowCwd === true) }))
    .filter((f) => f.locations.length > 0);
}

/**
 * The rule files of `formats` in one folder below cwd, found and read as the
 * rules step reads the folders above (confined to the project's real root,
 * through the door, each capped at `maxBytes`). A file left out (refused,
 * unreadable, switched off by its fields) is a diagnostic, not a rule.
 */
export async function loadFolderRules(
  dir: string,
  formats: readonly RuleFormat[],
  o: { reach: Reach; maxBytes: number },
): Promise<{ rules: Rule[]; diagnostics: Diagnostic[] }> {
  const rules: Rule[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const format of formats) {
    // In the rules step's order: by path, whichever location found it.
    const found = (
      await Promise.all(format.locations.map((l) => findRuleFiles(dir, l, o.reach.realRoot)))
    )
      .flat()
      .sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
    for (const candidate of found) {
      const path = toPosix(candidate.path);
      const leftOut = (fate: RuleFate) => {
        const d = accountDiagnostic({ path, source: format.source, layer: "project", fate });
        if (d) diagnostics.push(d);
      };
      if (candidate.refused) {
        leftOut(candidate.refused);
        continue;
      }
      const text = await readRepoCapped(candidate.path, { reach: o.reach, maxBytes: o.maxBytes });
      if (!text.ok) {
        const reason = text.diagnostics[0]?.message ?? text.reason;
        leftOut(
          text.reason === "refused"
            ? { status: "refused", reason: reason.replace(/^not read: /, "") }
            : { status: "unreadable", reason },
        );
        continue;
      }
      const one = toRule(candidate, format, "project", text.text, path);
      diagnostics.push(...one.diagnostics);
      if (one.disabled !== undefined) {
        leftOut({ status: "disabled", reason: one.disabled });
        continue;
      }
      const cut = text.omitted > 0 ? `\n${cutMarker(text.omitted, o.maxBytes)}` : "";
      rules.push({ ...one.rule, content: `${one.rule.content}${cut}` });
    }
  }
  return { rules, diagnostics };
}
