import { join } from "node:path";
import { ancestorsOf, isWithin, toPosix } from "../../_paths.js";
import { DEFAULT_PROJECT_DIR } from "../../locate/layers.js";
import { RULE_FORMATS } from "./formats.js";
import type { Rule } from "./types.js";

/**
 * The folder a rule's globs are relative to: for a project's rule file, the
 * folder that holds its format's location (`pkg/` for
 * `pkg/.cursor/rules/x.mdc`, as Cursor reads nested rules); for the project
 * layer's own rules (`<cwd>/.pi/rules`), cwd; for the user's rules, which
 * belong to no folder, the project root.
 */
export function ruleBase(
  rule: Pick<Rule, "path" | "source" | "layer">,
  where: {
    cwd: string;
    root: string;
    ceiling: string | undefined;
    projectDir?: string | undefined;
  },
): string {
  if (rule.layer === "user") return where.root;
  const folders = ancestorsOf(where.cwd, where.ceiling)
    .filter((d) => isWithin(d, where.root))
    .reverse();
  const layer = toPosix(join(where.cwd, where.projectDir ?? DEFAULT_PROJECT_DIR));
  if (rule.source === "sysprompt" && rule.path.startsWith(`${layer}/`)) return where.cwd;
  const locations = RULE_FORMATS.filter(
    (f) => f.source === rule.source && f.scope === "project",
  ).flatMap((f) => f.locations);
  for (const folder of folders) {
    for (const location of locations) {
      const at = toPosix(join(folder, location.rel));
      if (rule.path === at || rule.path.startsWith(`${at}/`)) return folder;
    }
  }
  return where.root;
}
