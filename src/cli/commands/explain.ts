import { dirname, join } from "node:path";
import { maxOf, pushAll } from "../../_arrays.js";
import { homeFolder } from "../../_paths.js";
import { escapeInline } from "../../_text.js";
import type { ExplainedSetting, ExplainReport, LeftOutParagraphs } from "../../author/index.js";
import { defaultSandboxParent, explainPrompt, simulatePrompt } from "../../author/index.js";
import type { SystemPromptOptions } from "../../options.js";
import type { StepStatus } from "../../types.js";
import { type Palette, paletteFor } from "../colors.js";
import { formatDiagnostics, formatTable } from "../format.js";
import { type CliIo, EXIT_PROBLEMS, exitCodeFor } from "../io.js";
import { type RenderFlags, toRenderOptions, typedFlag } from "../options.js";
import { formatSimulation } from "./_format-simulate.js";
import { presetLines } from "./_preset-lines.js";
import { showPath } from "./_show-path.js";

/**
 * `sysprompt explain`: a row per section (order, layer, file, bytes, tokens,
 * flags), the total and the cache-stable prefix, the context files, skills
 * and templates counted, and the gathering steps; `--json` prints the whole
 * report. Diagnostics go to stderr, as for render.
 */
export async function explainCommand(
  flags: RenderFlags & { json?: boolean; simulate?: boolean },
  io: CliIo,
): Promise<number> {
  const options = toRenderOptions(flags, io.cwd, io.env, io.home, io.machine);
  if (flags.simulate) return simulateCommand(options, flags, io);
  const explained = await explainPrompt(options, "cli");
  const report = {
    ...explained,
    settings: typedSettings(explained.settings, flags),
  };
  if (flags.json) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const cwd = options.cwd ?? io.cwd;
    const paint = paletteFor(io);
    io.stdout(formatExplain(report, (path) => showPath(path, cwd), paint));
    io.stderr(formatDiagnostics(report.diagnostics, paint.level));
  }
  return exitCodeFor(report.diagnostics, flags.strict);
}

/**
 * `explain --simulate`: the table of agent actions (`--json`: the report).
 * Exits 1 when the project could not be copied, as nothing was simulated.
 */
async function simulateCommand(
  options: SystemPromptOptions,
  flags: { json?: boolean; strict?: boolean },
  io: CliIo,
): Promise<number> {
  const sandboxDir = join(
    dirname(defaultSandboxParent(io.env, io.home ?? homeFolder())),
    "simulate",
  );
  const report = await simulatePrompt(options, { sandboxDir });
  const paint = paletteFor(io);
  if (flags.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout(formatSimulation(report, (path) => showPath(path, options.cwd ?? io.cwd), paint));
  if (!flags.json) io.stderr(formatDiagnostics(report.diagnostics, paint.level));
  return report.actions.length === 0
    ? EXIT_PROBLEMS
    : exitCodeFor(report.diagnostics, flags.strict);
}

/** The CLI's settings with the flag typed for each; what it set itself (its folder as cwd) is no setting. */
function typedSettings(
  settings: readonly ExplainedSetting[],
  flags: RenderFlags,
): ExplainedSetting[] {
  return settings.flatMap((s) => {
    if (s.source !== "cli") return [s];
    const flag = typedFlag(s.option, flags);
    return flag === undefined ? [] : [{ ...s, flag }];
  });
}

/**
 * One line: each setting that is not a default, its value and where it came
 * from (`agent codex (--agent), deadline 800 (from ~/.pi/agent/sysprompt.yaml:3)`),
 * or that all are defaults. A value a project's file gave is the repository's
 * text: it is quoted as a JSON string (`vars.deploy "…" (from .pi/sysprompt.yaml:2)`),
 * so its end is visible and a `(from ~/.pi/agent/sysprompt.yaml:3)` it holds
 * cannot read as where it came from (review rev53c F1). Yours, a flag's and
 * an option's are shown as given.
 */
export function formatSettings(
  settings: readonly ExplainedSetting[],
  show: (path: string) => string,
): string {
  if (settings.length === 0) return "settings: all defaults (no flag or sysprompt.yaml sets one)";
  const where = (s: ExplainedSetting) => {
    const m = /^(?:user|project):(.*?)(?::(\d+))?$/.exec(s.at ?? "");
    if (m) return `from ${show(m[1] ?? "")}${m[2] ? `:${m[2]}` : ""}`;
    return s.flag ?? s.source;
  };
  const value = (s: ExplainedSetting) =>
    escapeInline(s.at?.startsWith("project:") ? JSON.stringify(s.value) : s.value);
  const one = (s: ExplainedSetting) => `${escapeInline(s.key)} ${value(s)} (${where(s)})`;
  return `settings: ${settings.map(one).join(", ")}`;
}

/** The mark after a token count estimated in part from its text's length. */
const ESTIMATED = "*";

function mark(counted: { tokensEstimated?: true }): string {
  return counted.tokensEstimated ? ESTIMATED : "";
}

/** The report as text; `show` shortens paths. */
export function formatExplain(
  report: ExplainReport,
  show: (path: string) => string,
  paint: Palette,
): string {
  const out: string[] = [];
  const rows = report.sections.map((s) => [
    s.order === null ? "-" : String(s.order),
    s.name,
    s.layer,
    s.path === null ? "-" : show(s.path),
    String(s.bytes),
    `${s.tokens}${mark(s)}`,
    sectionFlags(s).join(",") || "-",
  ]);
  const table = formatTable(alignRight([SECTION_HEADER, ...rows], [0, 4, 5])).split("\n");
  out.push(paint.bold(table[0] ?? ""));
  report.sections.forEach((s, i) => {
    const line = table[i + 1] ?? "";
    const over = s.maxTokens !== null && s.tokens > s.maxTokens;
    out.push(over ? paint.red(line) : s.volatile ? paint.yellow(line) : line);
  });
  const { total, cacheStablePrefix: prefix, tokenizer } = report;
  out.push(
    `total: ${plural(total.sections, "section")}, ${total.bytes} bytes, ~${total.tokens}${mark(total)} tokens (${tokenizer.encoding} estimate)`,
  );
  out.push(
    prefix.firstVolatile === null
      ? `cache-stable prefix: the whole prompt, ~${prefix.tokens}${mark(prefix)} tokens (no volatile section)`
      : `cache-stable prefix: ~${prefix.tokens}${mark(prefix)} tokens, ${prefix.bytes} bytes: ${plural(prefix.sections, "section")} before "${prefix.firstVolatile}", the first volatile one`,
  );
  for (const p of report.cachePrefix) {
    out.push(
      p.endsWith === null
        ? `cache prefix through ${p.through}: empty (the prompt starts with a ${p.through === "stable" ? "session or volatile" : "volatile"} section)`
        : `cache prefix through ${p.through}: ~${p.tokens}${mark(p)} tokens, ${p.bytes} bytes, ${plural(p.sections, "section")}, ends with "${p.endsWith}"`,
    );
  }
  const counted = [...report.sections, ...report.contextFiles.files, total, prefix];
  if ([...counted, ...report.cachePrefix].some((c) => c.tokensEstimated)) {
    out.push(
      paint.yellow(
        `${ESTIMATED} estimated in part from the text's length: counting reached the render's deadline (tokens-estimated)`,
      ),
    );
  }
  out.push(formatSettings(report.settings, show));
  if (report.generalRules) {
    const { path, count } = report.generalRules;
    out.push(
      `general rules: ${plural(count, "rule")} from ${show(path)}, in place of the builtin list`,
    );
  }
  if (report.budget) {
    const b = report.budget;
    out.push(
      `budget: ~${b.tokens} of ${b.maxTokens} tokens (from ~${b.initialTokens})${b.fits ? "" : ", does not fit"}${b.overCounted ? "; over-counted past the deadline (budget-tokens-estimated)" : ""}`,
    );
    for (const cut of b.cuts)
      out.push(`  cut ${cut.section} (${cut.step}): ${cut.detail}, ~${cut.saved} tokens`);
    for (const skip of b.skipped)
      out.push(
        `  skipped ${skip.section} (${skip.step}): ${skip.detail} would ${skip.added > 0 ? `add ~${skip.added} tokens` : "save nothing"}`,
      );
  }

  const agent = presetLines(report.preset, show);
  if (agent.length > 0) pushAll(out, [""], agent);

  const files = report.contextFiles.files;
  const dropped = files.filter((f) => f.status === "dropped").length;
  out.push(
    "",
    `context files: ${files.length - dropped} loaded${dropped ? `, ${dropped} dropped` : ""} (${plural(report.contextFiles.folders, "folder")} searched)`,
  );
  for (const f of files) {
    if (f.status === "loaded") {
      out.push(`  loaded   ${show(f.path)}  ${f.bytes} bytes, ~${f.tokens}${mark(f)} tokens`);
    } else {
      out.push(
        paint.dim(
          `  dropped  ${show(f.path)}  (every paragraph already stated in ${show(f.containedIn ?? "?")})`,
        ),
      );
    }
    if (f.leftOut) out.push(`    ${leftOutLine(f.leftOut, show)}`);
    if (f.imports.length) out.push(`    imports  ${f.imports.map(show).join(", ")}`);
    if (f.cut.length) out.push(paint.yellow(`    cut      ${f.cut.map(show).join(", ")}`));
  }

  const rules = report.rules;
  if (rules.length > 0) {
    const used = ["inlined", "listed", "manual", "on-touch"];
    const kept = rules.filter((r) => used.includes(r.status)).length;
    out.push("", `rule files: ${rules.length} found, ${kept} kept`);
    for (const r of rules) {
      const what = `${r.status.padEnd(10)} ${show(r.path)}  ${r.source}${r.activation ? `, ${r.activation}` : ""}`;
      // A path (where its text is, the file it repeats or yields to) is shown like the others.
      const named = ["deduped", "duplicate", "shadowed", "on-touch"].includes(r.status);
      const detail =
        r.status === "duplicate" && r.detail === r.path
          ? "loaded as a context file"
          : r.detail && named
            ? show(r.detail)
            : r.detail && escapeInline(r.detail);
      const line = `  ${what}${detail ? `  (${detail})` : ""}${r.cut ? "  cut" : ""}`;
      const dropped = !used.includes(r.status);
      const warn = ["refused", "over-cap", "unreadable"].includes(r.status);
      out.push(warn ? paint.yellow(line) : dropped ? paint.dim(line) : line);
      if (r.leftOut) out.push(`    ${leftOutLine(r.leftOut, show)}`);
    }
  }

  const { skills, templates } = report;
  out.push(
    "",
    `skills: ${skills.listed} listed in the prompt${skills.tool ? ` (loaded with the ${skills.tool} tool)` : " (neither read nor bash is selected)"}`,
    `templates: ${plural(templates.sections, "section")}, ${plural(templates.partials, "partial")}, ${plural(templates.promptTemplates, "prompt template")}`,
    "",
  );
  const steps = formatTable(
    alignRight([STEP_HEADER, ...report.steps.map((s) => [s.name, s.status, s.ms.toFixed(1)])], [2]),
  ).split("\n");
  out.push(paint.bold(steps[0] ?? ""));
  report.steps.forEach((s, i) => {
    out.push(STATUS_COLOR[s.status](paint)(steps[i + 1] ?? ""));
  });
  out.push(
    `gathered in ${report.timing.gatherMs.toFixed(1)} ms, rendered in ${report.timing.renderMs.toFixed(1)} ms`,
  );
  return `${out.join("\n")}\n`;
}

/** The line under a file that paragraph dedupe cut: how many paragraphs went, and where they are. */
function leftOutLine(left: LeftOutParagraphs, show: (path: string) => string): string {
  const what = left.paragraphs === 1 ? "1 paragraph" : `${left.paragraphs} paragraphs`;
  return `left out ${what} (already stated in ${left.statedIn.map(show).join(", ")})`;
}

const SECTION_HEADER = ["ORDER", "SECTION", "LAYER", "FILE", "BYTES", "TOKENS", "FLAGS"];
const STEP_HEADER = ["STEP", "STATUS", "MS"];

const STATUS_COLOR: Record<StepStatus, (p: Palette) => (text: string) => string> = {
  ok: () => (text) => text,
  skipped: (p) => p.dim,
  timeout: (p) => p.yellow,
  failed: (p) => p.red,
};

function sectionFlags(s: ExplainReport["sections"][number]): string[] {
  return [
    s.cache === "stable" ? "" : s.cache,
    s.variant !== null ? `variant:${s.variant}` : "",
    s.maxTokens !== null ? `maxTokens:${s.maxTokens}` : "",
    s.overrides ? `overrides:${s.overrides}` : "",
  ].filter((f) => f !== "");
}

/** Right-aligns the given columns (numbers), headers included. */
function alignRight(rows: string[][], columns: readonly number[]): string[][] {
  const widths = columns.map((c) => maxOf(rows.map((r) => r[c]?.length ?? 0)));
  return rows.map((row) =>
    row.map((cell, c) => {
      const k = columns.indexOf(c);
      return k < 0 ? cell : cell.padStart(widths[k] ?? 0);
    }),
  );
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}
