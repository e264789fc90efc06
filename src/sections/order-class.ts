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
