import type Handlebars from "handlebars";

type HandlebarsInstance = typeof Handlebars;

interface JavaScriptCompilerLike {
  appendToBuffer(source: unknown, location?: unknown, explicit?: boolean): unknown;
}
type JavaScriptCompilerClass = new (...args: unknown[]) => JavaScriptCompilerLike;

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
      return super.appendToBuffer(['"" + (', ...parts, ")"], location, explicit);
    }
  }
  (StringAppendingCompiler.prototype as { compiler?: unknown }).compiler = StringAppendingCompiler;
  target.JavaScriptCompiler = StringAppendingCompiler;
}
