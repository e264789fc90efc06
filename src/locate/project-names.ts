import { join } from "node:path";
import { MAX_PROJECT_FOLD_UNITS, MAX_PROJECT_NAMES, wrapperNames } from "../_prompt-text.js";
import type { Diagnostic } from "../types.js";
import type { LoadedLayer } from "./load-layer.js";

/**
 * The element names a trusted project's layer gives (its sections' tags, the
 * elements its sections and partials close or open with `{{#xml}}`, and the
 * `vars` a `{{#xml}}` named from the data may take), at most
 * {@link MAX_PROJECT_NAMES} of them, from at most
 * {@link MAX_PROJECT_FOLD_UNITS} units of closers' names folded: past that,
 * the rest of its templates is not read, and a warning
 * (`element-names-capped`) names the file the names or the work ran out in. Those names are the project's own: a repository text may then
 * write them, which costs the project's own elements only; your layers' names
 * are read apart, in full.
 */
export function projectElementNames(
  project: readonly LoadedLayer[],
  projectDir: string,
  vars: Readonly<Record<string, unknown>> | undefined,
  max = MAX_PROJECT_NAMES,
): { names: Set<string>; diagnostics: Diagnostic[] } {
  const sections = project.flatMap((l) => l.sections);
  const partials = project.flatMap((l) => Object.entries(l.partials));
  const room: { max: number; cut?: number; work?: boolean } = { max };
  const names = wrapperNames(
    sections,
    false,
    partials.map(([, text]) => text),
    vars,
    room,
  );
  if (room.cut === undefined) return { names, diagnostics: [] };
  const at = sections[room.cut];
  const partial = partials[room.cut - sections.length]?.[0] ?? "";
  const path = at ? at.source.path : join(projectDir, "partials", `${partial}.md`);
  const diagnostics: Diagnostic[] = [
    {
      level: "warning",
      code: "element-names-capped",
      message: `the project's templates ${room.work ? `close elements of more than ${MAX_PROJECT_FOLD_UNITS} characters of names in all (the most read)` : `name more than ${max} elements`}: the rest, from this file on, are not kept, so a repository's text may open or close them (only the project's own elements)`,
      ...(path !== undefined ? { path } : {}),
    },
  ];
  return { names, diagnostics };
}
