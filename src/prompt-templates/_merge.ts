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
  const yoursOut = new Map<string, PromptTemplate>();
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
    if (winner.source === "project" && loser.source === "user") {
      // Said once the final winner is known: an explicit path may beat the project's too.
      yoursOut.set(winner.name, loser);
      continue;
    }
    diagnostics.push({
      // An explicit path over a layer is what it is for; two files in one layer
      // is more likely a mistake.
      level: winner.source === loser.source ? "warning" : "info",
      code: "name-collision",
      message: `prompt template "/${winner.name}": ${winner.filePath} (${winner.source}) wins over ${loser.filePath} (${loser.source})`,
      path: loser.filePath,
    });
  }
  for (const [name, loser] of yoursOut) {
    const winner = byName.get(name);
    if (winner !== undefined) diagnostics.push(yoursLeftOut(winner, loser));
  }
  const templates = [...byName.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  return { templates, diagnostics };
}

/**
 * Your template of a name the project's took the place of (pi's order): what
 * `/name` expands to is now the project's text, so a warning naming both.
 * Under an explicit path of the caller's, the usual collision info.
 */
function yoursLeftOut(winner: PromptTemplate, loser: PromptTemplate): Diagnostic {
  if (winner.source !== "project") {
    return {
      level: "info",
      code: "name-collision",
      message: `prompt template "/${winner.name}": ${winner.filePath} (${winner.source}) wins over ${loser.filePath} (${loser.source})`,
      path: loser.filePath,
    };
  }
  return {
    level: "warning",
    code: "user-text-left-out",
    message: `your prompt template "/${winner.name}" (${loser.filePath}) is left out: the project's ${winner.filePath} of the same name takes its place (a trusted project's template of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back`,
    path: winner.filePath,
  };
}
