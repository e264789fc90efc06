import type Handlebars from "handlebars";

type HandlebarsInstance = typeof Handlebars;

interface JavaScriptCompilerLike {
  appendToBuffer(source: unknown, location?: unknown, explicit?: boolean): unknown;
}
type JavaScriptCompilerClass = new (...args: unknown[]) => JavaScriptCompilerLike;

/**
 * The key of the runtime hook a compiled template gives each value it prints
 * (not the template's own text) to, when set: the engine's, which marks the
 * texts of several lines the render's data holds (see `RenderOptions.printed`).
 */
export const PRINTED_HOOK = "syspromptPrinted";

/**
 * Makes every value appended to the output a string. Unescaped output
 * (`noEscape`, `{{{x}}}`) appends raw values joined with `+`, so `{{a}}{{b}}`
 * with the numbers 1 and 2 renders "3" (handlebars.js#1838, fixed upstream
 * after 4.7). `appendToBuffer` is the compiler's documented override point;
 * `compiler` makes block bodies use the subclass too.
 */
export function useStringAppends(hb: HandlebarsInstance): void {
  const target = hb as unknown as { JavaScriptCompiler: JavaScriptCompilerClass };
  const Base = target.JavaScriptCompiler;
  class StringAppendingCompiler extends Base {
    override appendToBuffer(source: unknown, location?: unknown, explicit?: boolean): unknown {
      const parts = Array.isArray(source) ? source : [source];
      // The template's own text (a quoted literal) as it is; a value through the render's hook.
      if (typeof source === "string" && (source.startsWith('"') || source === "''"))
        return super.appendToBuffer(['"" + (', ...parts, ")"], location, explicit);
      const hook = `container.hooks && container.hooks.${PRINTED_HOOK}`;
      return super.appendToBuffer(
        ['"" + ((', hook, " || String)(", ...parts, "))"],
        location,
        explicit,
      );
    }
  }
  (StringAppendingCompiler.prototype as { compiler?: unknown }).compiler = StringAppendingCompiler;
  target.JavaScriptCompiler = StringAppendingCompiler;
}
