import type { Diagnostic } from "../types.js";
import type { SectionTemplate } from "./types.js";

/**
 * An info for each user or project section of class stable whose own
 * `order:` puts it after a session section: the class wins (stable sections
 * go before every session one, so a workspace change never re-sends them),
 * so it does not stand where its order says. Moving it before the first
 * session section makes the file say where it is; `cache: session` says its
 * text changes per session, if that is what the order meant.
 */
export function classOrderInfos(templates: readonly SectionTemplate[]): Diagnostic[] {
  const session = templates
    .filter((t) => t.meta.enabled && t.meta.cache === "session")
    .sort((a, b) => a.meta.order - b.meta.order);
  const first = session[0];
  if (!first) return [];
  const infos: Diagnostic[] = [];
  for (const t of templates) {
    if (t.source.layer !== "user" && t.source.layer !== "project") continue;
    if (!t.meta.enabled || t.meta.cache !== "stable" || t.meta.order <= first.meta.order) continue;
    // Its own order, not one it inherits from the version it overrides.
    if (t.lower ? t.lower.meta.order === t.meta.order : t.meta.order === 1000) continue;
    const before = session.filter((s) => s.meta.order < t.meta.order).at(-1) ?? first;
    infos.push({
      level: "info",
      code: "section-order-class",
      message: `section "${t.name}" is stable but its order ${t.meta.order} comes after the session section "${before.name}" (${before.meta.order}); stable sections go before every session one, so it is placed before "${first.name}", where a change of the workspace or the date leaves it in the cached prefix. Give it an order below ${first.meta.order} so the file says where it is, or cache: session if its text changes with the workspace`,
      ...(t.source.path ? { path: t.source.path } : {}),
    });
  }
  return infos;
}

/**
 * The fields of the template data whose value changes with the session or
 * the workspace: those the builtin session sections read (environment,
 * dir_context, workspace_tree, workspace_roots, git, date) and no stable one.
 * Not `model`: a provider's cache is kept per model anyway.
 */
const SESSION_FIELDS = new Set([
  "date",
  "environment",
  "workspaceTree",
  "rootTrees",
  "agentsMd",
  "rootAgentsMd",
  "agentsMdTruncated",
  "agentsMdLeftOut",
  "roots",
  "git",
]);

/** How much of one `{{…}}` is looked at: an expression is short, a template's text may not be. */
const MAX_EXPRESSION = 200;

/**
 * The session fields a template body names in its `{{…}}` expressions
 * (`{{date}}`, `{{#each environment}}`, `{{git.branch}}`, `{{../roots}}`,
 * `{{@root.date}}`), in the order first named. Quoted strings are not names.
 * One pass over the body, each expression read at most {@link MAX_EXPRESSION}
 * characters.
 */
export function sessionFieldsRead(body: string): string[] {
  const found = new Set<string>();
  let at = body.indexOf("{{");
  while (at !== -1) {
    const close = body.indexOf("}}", at + 2);
    if (close === -1) break;
    const span = body
      .slice(at + 2, Math.min(close, at + 2 + MAX_EXPRESSION))
      .replace(/"[^"]*"|'[^']*'/g, " ");
    for (const token of span.split(/[\s(){}=~#^>&|]+/)) {
      const path = token.replace(/^(?:@root\.|this\.|(?:\.\.\/)+|\/)/, "");
      const field = path.split(/[./[]/)[0] ?? "";
      if (SESSION_FIELDS.has(field)) found.add(field);
    }
    at = body.indexOf("{{", close + 2);
  }
  return [...found];
}

/**
 * An info for each user or project section of class stable whose template
 * reads a field that changes with the session ({@link sessionFieldsRead}):
 * its text changes from one session to the next where the prompt's blocks,
 * `explain` and the Anthropic format's breakpoints count it in the cached,
 * stable prefix. The class is the file's to say; the info says what it reads.
 */
export function classDataInfos(templates: readonly SectionTemplate[]): Diagnostic[] {
  const infos: Diagnostic[] = [];
  for (const t of templates) {
    if (t.source.layer !== "user" && t.source.layer !== "project") continue;
    if (!t.meta.enabled || t.meta.cache !== "stable") continue;
    const fields = sessionFieldsRead(t.body);
    if (fields.length === 0) continue;
    const named = fields.map((f) => `"${f}"`).join(", ");
    infos.push({
      level: "info",
      code: "section-cache-data",
      message: `section "${t.name}" is stable but reads ${named}, which ${fields.length === 1 ? "changes" : "change"} with the session or the workspace: its text then changes inside the prefix counted as cached (explain's cache-stable prefix, the anthropic format's breakpoints). Give it cache: session, or leave ${fields.length === 1 ? "that field" : "those fields"} to a session section`,
      ...(t.source.path ? { path: t.source.path } : {}),
    });
  }
  return infos;
}
