import { toPosix } from "../../_paths.js";
import { terminalName } from "../../_text.js";
import { capDiagnostics } from "../../engine/index.js";
import { mergeRootMarkerRefusals } from "../../repo-files/index.js";
import { formatDiagnostics, formatTable } from "../format.js";
import { type CliIo, exitCodeFor } from "../io.js";
import { loadResources, type ResourceFlags } from "./_resources.js";

/**
 * `sysprompt list`: slash-command templates, skills and, when there are any,
 * rule files (manual ones included: the prompt never shows them), with
 * sources and diagnostics.
 */
export async function listCommand(
  flags: ResourceFlags & { json?: boolean; strict?: boolean },
  io: CliIo,
): Promise<number> {
  const { templates, skills, rules, hints } = await loadResources(flags, io);
  // As a render shows them: twenty of one code, the rest counted (loadRules does not cap its own).
  // A marker both root searches passed over said once, as a render says it.
  const diagnostics = capDiagnostics(
    mergeRootMarkerRefusals([
      ...templates.diagnostics,
      ...skills.diagnostics,
      ...rules.diagnostics,
      ...hints,
    ]),
  );
  if (flags.json) {
    io.stdout(
      `${JSON.stringify(
        {
          templates: templates.templates,
          skills: skills.skills,
          rules: rules.rules,
          diagnostics,
        },
        null,
        2,
      )}\n`,
    );
    return exitCodeFor(diagnostics, flags.strict);
  }
  io.stdout("Templates\n");
  io.stdout(
    templates.templates.length === 0
      ? "  (none)\n"
      : formatTable(
          templates.templates.map((t) => [
            `  /${terminalName(t.name)}${t.argumentHint ? ` ${terminalName(t.argumentHint)}` : ""}`,
            terminalName(t.description),
            `${t.source} ${terminalName(toPosix(t.filePath))}`,
          ]),
        ),
  );
  io.stdout("\nSkills\n");
  io.stdout(
    skills.skills.length === 0
      ? "  (none)\n"
      : formatTable(
          skills.skills.map((s) => [
            `  ${terminalName(s.name)}${s.disableModelInvocation ? " (hidden)" : ""}`,
            terminalName(oneLine(s.description)),
            `${s.source} ${terminalName(toPosix(s.filePath))}`,
          ]),
        ),
  );
  // Only when there are any: most projects have none, and then the listing is as it was.
  if (rules.rules.length > 0) {
    io.stdout("\nRules\n");
    io.stdout(
      formatTable(
        rules.rules.map((r) => [
          `  ${terminalName(oneLine(r.name, 40))}`,
          r.activation === "glob"
            ? `glob ${terminalName(oneLine(r.globs.join(", "), 40))}`
            : r.activation,
          `${r.source} ${terminalName(r.path)}`,
        ]),
      ),
    );
  }
  io.stderr(formatDiagnostics(diagnostics));
  return exitCodeFor(diagnostics, flags.strict);
}

function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}
