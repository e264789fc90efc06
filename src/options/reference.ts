import { code, markdownTable } from "../_markdown-table.js";
import { OPTION_SPECS } from "./registry.js";

/**
 * docs/options.md, generated from the option registry: one row per option
 * with its type, default, flag, sysprompt.yaml key, scenario key, whether a
 * prompt session fixes it, and its one-line doc. test/options/reference.test.ts
 * fails when the committed page differs.
 */
export function optionsReference(): string {
  const rows = OPTION_SPECS.map(([name, spec]) => {
    const flags = (spec.flag?.declare ?? []).map(([flag]) => code(flag.split(" ")[0] ?? flag));
    return [
      code(name),
      spec.type,
      spec.default,
      flags.length === 0
        ? ""
        : `${flags.join(", ")}${spec.flag?.repeatable ? " (repeatable)" : ""}`,
      spec.config
        ? `${code(spec.config.key)}${spec.config.project ? ` (${spec.config.project.yours}: yours only)` : ""}`
        : "",
      spec.scenario ? code(spec.scenario) : "",
      spec.session === "fixed" ? "fixed" : "",
      spec.doc,
    ];
  });
  const head = [
    "option",
    "type",
    "default",
    "flag",
    "sysprompt.yaml",
    "scenario",
    "session",
    "what it does",
  ];
  return [
    "",
    "Every option of `renderSystemPrompt()` and `createPromptSession()`. A flag is one of the",
    "commands that render (`render`, `sections`, `explain`, `watch`, `serve`, `export`); a",
    '`sysprompt.yaml` key sets a default under the flags ("yours only": that value is set by the',
    "agent dir's file, never a project's); a scenario key is what a `*.scenario.yaml` may set;",
    "`fixed` options are set when a prompt session is created.",
    "",
    ...markdownTable(head, rows),
    "",
  ].join("\n");
}
