import type { Diagnostic } from "../types.js";
import type { PromptTemplate, PromptTemplateSource } from "./types.js";

const PRECEDENCE: Record<PromptTemplateSource, number> = { user: 0, project: 1, option: 2 };

/**
 * Keeps one template per name: project over user, an explicit path over both;
 * within one source the first loaded wins. Each collision between two files
 * names the winner and the loser. Returns the templates sorted by name.
 */
export function mergeTemplates(loaded: readonly PromptTemplate[]): {
  templates: PromptTemplate[];
  diagnostics: Diagnostic[];
} {
  const byName = new Map<string, PromptTemplate>();
  const diagnostics: Diagnostic[] = [];
  for (const template of loaded) {
    const previous = byName.get(template.name);
    if (!previous) {
      byName.set(template.name, template);
      continue;
    }
    const laterWins = PRECEDENCE[template.source] > PRECEDENCE[previous.source];
    const [winner, loser] = laterWins ? [template, previous] : [previous, template];
    byName.set(template.name, winner);
    // The same file reached twice (an explicit path that is also a default
    // folder) is not a collision, only a change of source.
    if (winner.filePath === loser.filePath) continue;
    diagnostics.push({
      // Overriding a lower layer is what layers are for; two files in one layer
      // is more likely a mistake.
      level: winner.source === loser.source ? "warning" : "info",
      code: "name-collision",
      message: `prompt template "/${winner.name}": ${winner.filePath} (${winner.source}) wins over ${loser.filePath} (${loser.source})`,
      path: loser.filePath,
    });
  }
  const templates = [...byName.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  return { templates, diagnostics };
}
