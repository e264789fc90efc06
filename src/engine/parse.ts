import { createRequire } from "node:module";
import type Handlebars from "handlebars";
import { parseSource } from "./_errors.js";

/** Handlebars' syntax tree of one template (see `hbs.AST` in handlebars' types). */
export type TemplateAst = hbs.AST.Program;

let parser: typeof Handlebars | undefined;

/**
 * Parses a template into its syntax tree without compiling it, for tools that
 * read templates (`sysprompt check`). Throws a `TemplateError` located at the
 * mistake, like `Engine.check`. Loads the Handlebars compiler on first use, so
 * nothing on the render path imports this file.
 */
export function parseTemplate(source: string): TemplateAst {
  parser ??= createRequire(import.meta.url)("handlebars") as typeof Handlebars;
  return parseSource(parser, source) as TemplateAst;
}
