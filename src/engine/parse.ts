import type Handlebars from "handlebars";
import { parseSource } from "./_errors.js";
import { loadCompiler } from "./_handlebars.js";

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
  parser ??= loadCompiler();
  return parseSource(parser, source) as TemplateAst;
}
