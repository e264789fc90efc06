/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replaceAll("\n", " ").replaceAll("|", "\\|");
}

/** A Markdown table, as the generated references in docs/ print one: a line per row. */
export function markdownTable(head: readonly string[], rows: readonly (readonly string[])[]) {
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ];
}

/** `text` as inline code. */
export const code = (text: string) => `\`${text}\``;
