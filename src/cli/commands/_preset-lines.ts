import type { PresetReport } from "../../agents/index.js";

/**
 * What the agent preset did, as lines for `explain` and `sections`: which
 * preset and from which files, the preamble's name, the tools it selected
 * and described, and what it left out because the agent loads it itself.
 * Nothing for the default pi when no file of it was read (it changes nothing).
 */
export function presetLines(
  preset: PresetReport | undefined,
  show: (path: string) => string,
): string[] {
  if (!preset || preset.sources.length === 0) return [];
  const files = preset.sources.map((s) => `${s.layer} ${show(s.path)}`).join(", then ");
  const out = [`agent preset: ${preset.name} (${files})`];
  if (preset.verifiedWith !== null)
    out.push(`  verified with: ${preset.name} ${preset.verifiedWith}`);
  if (preset.agentName !== null) out.push(`  preamble name: ${preset.agentName}`);
  const set =
    preset.toolSet === null ? "" : ` (tool set ${preset.toolSet + 1}, for this model or mode)`;
  if (preset.tools !== null) out.push(`  tools: ${preset.tools.join(", ")}${set}`);
  else if (preset.described.length > 0) {
    out.push(`  tool descriptions: ${preset.described.join(", ")} (tools chosen by --tools)`);
  }
  if (preset.agentSends.length > 0) {
    out.push(
      `  left out: sections ${preset.agentSends.join(", ")} (${preset.name} sends them itself)`,
    );
  }
  for (const path of preset.contextFilesLeftOut) {
    out.push(`  left out: ${show(path)} (${preset.name} loads it itself)`);
  }
  if (preset.ruleSourcesLeftOut.length > 0) {
    out.push(
      `  not read: rule sources ${preset.ruleSourcesLeftOut.join(", ")} (${preset.name} loads them itself)`,
    );
  }
  return out;
}
