import { code, markdownTable } from "./_markdown-table.js";
import { PROMPT_DATA_SCHEMA, type SchemaField, type SchemaNode } from "./data.js";

/** `string`, `list of string`, `list of objects`, `object`: what a template finds there. */
function typeOf(node: SchemaNode): string {
  if (node.type === "list") {
    const item = node.items.type === "object" ? "objects" : typeOf(node.items);
    return `list of ${item}`;
  }
  if (node.type === "object" && node.open) return "object (names given at render time)";
  return node.type;
}

/** Each field below `node` as a row, depth first: `contextFiles`, then `contextFiles[].path`… */
function rows(node: SchemaNode, prefix: string): string[][] {
  const fields: Readonly<Record<string, SchemaField>> =
    node.type === "object"
      ? node.fields
      : node.type === "list" && node.items.type === "object"
        ? node.items.fields
        : {};
  const at = node.type === "list" ? `${prefix}[].` : prefix === "" ? "" : `${prefix}.`;
  return Object.entries(fields).flatMap(([name, field]) => {
    const path = `${at}${name}`;
    const row = [code(path), typeOf(field), field.nullable ? "null" : "", field.doc];
    return [row, ...rows(field, path)];
  });
}

/**
 * docs/template-data.md's reference, generated from {@link PROMPT_DATA_SCHEMA}:
 * one row per field path a template may name (`contextFiles[].path`), with its
 * type, whether it may be null, and its doc. test/docs/template-data.test.ts
 * fails when the committed page differs.
 */
export function templateDataReference(): string {
  const head = ["field", "type", "null", "what it holds"];
  return ["", ...markdownTable(head, rows(PROMPT_DATA_SCHEMA, "")), ""].join("\n");
}
