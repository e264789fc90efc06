import { escapeInline } from "../../_text.js";
import type { SimulationReport, Survival } from "../../author/index.js";
import { CACHE_CLASSES } from "../../sections/types.js";
import type { Palette } from "../colors.js";
import { formatTable } from "../format.js";

const HEADER = [
  "ACTION",
  "CHANGED",
  "PREFIX KEPT",
  "BYTES",
  "BROKEN AT",
  "STABLE",
  "SESSION",
  "VOLATILE",
  "IN A SESSION",
];

/**
 * `explain --simulate` as text: a line on the baseline, then one row per
 * action with the prefix a fresh render keeps (tokens, share, bytes), the
 * section that broke it, the tokens kept of each class (kept/all), and the
 * prefix a prompt session keeps. `show` shortens paths.
 */
export function formatSimulation(
  report: SimulationReport,
  show: (path: string) => string,
  paint: Palette,
): string {
  const out: string[] = [];
  const b = report.baseline;
  out.push(
    `simulated in a temporary copy of ${show(report.project.root)} (the project is not written); tokens are an ${report.tokenizer.encoding} estimate`,
  );
  if (report.actions.length === 0) {
    // Why, in a word, here too: the errors themselves go to stderr.
    const why = report.diagnostics.filter((d) => d.code === "simulate-copy" && d.level === "error");
    const reason = why.length > 0 ? ` (${plural(why.length, "error")} below)` : "";
    return `${out.join("\n")}\n${ignoredLine(report, show)}nothing simulated${reason}\n`;
  }
  out.push(
    `baseline: ${b.bytes} bytes, ~${b.tokens} tokens: ${CACHE_CLASSES.map((c) => `${c} ~${b.byClass[c].tokens}`).join(", ")}`,
  );
  // A reason quotes names raw (`private (a\nerror … is ignored by git)`): on one line (review rev108b F6).
  for (const s of report.skipped)
    out.push(paint.dim(`  not copied: ${show(s.path)} (${escapeInline(s.reason)})`));
  const ignored = ignoredLine(report, show);
  if (ignored !== "") out.push(paint.dim(ignored.trimEnd()));
  out.push("");
  const rows = report.actions.map((a) => [
    a.label,
    a.detail,
    kept(a.fresh),
    String(a.fresh.bytes),
    broken(a.fresh),
    ...CACHE_CLASSES.map((c) => `${a.fresh.byClass[c].keptTokens}/${a.fresh.byClass[c].tokens}`),
    a.session
      ? `${kept(a.session)}${sameBreak(a.fresh, a.session) ? "" : `, ${broken(a.session)}`}`
      : "-",
  ]);
  const table = formatTable([HEADER, ...rows]).split("\n");
  out.push(paint.bold(table[0] ?? ""));
  report.actions.forEach((a, i) => {
    const line = table[i + 1] ?? "";
    out.push(
      a.fresh.brokenAt === null ? line : a.fresh.share < 0.5 ? paint.red(line) : paint.yellow(line),
    );
  });
  out.push(
    "",
    "PREFIX KEPT: the tokens of the prompt's start that stay byte for byte the same (what a provider's cache can serve);",
    "STABLE / SESSION / VOLATILE: tokens of that class kept / in the prompt; IN A SESSION: the same in a session that keeps its session sections (as pi does).",
  );
  return `${out.join("\n")}\n`;
}

/** Ignored folders and files named in the line about them; the rest are counted. */
const IGNORED_NAMED = 5;

/** One line on the folders and files git ignores that the copy left out ("" for none), with its newline. */
function ignoredLine(report: SimulationReport, show: (path: string) => string): string {
  const all = [
    ...report.ignored.map((p) => `${show(p)}/`),
    ...report.ignoredFiles.map((p) => show(p)),
  ];
  if (all.length === 0) return "";
  const named = all.slice(0, IGNORED_NAMED);
  const more = all.length > IGNORED_NAMED ? ` and ${all.length - IGNORED_NAMED} more` : "";
  const counts = [
    ...(report.ignored.length > 0 ? [plural(report.ignored.length, "folder")] : []),
    ...(report.ignoredFiles.length > 0 ? [plural(report.ignoredFiles.length, "file")] : []),
  ];
  return `  not copied: ${counts.join(" and ")} git ignores (${named.join(", ")}${more})\n`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function kept(s: Survival): string {
  return `~${s.tokens} (${Math.floor(s.share * 100)}%)`;
}

function broken(s: Survival): string {
  const at = s.brokenAt;
  return at === null ? "-" : `${at.section} (${at.cache}, ${at.how})`;
}

function sameBreak(a: Survival, b: Survival): boolean {
  return JSON.stringify(a.brokenAt) === JSON.stringify(b.brokenAt);
}
