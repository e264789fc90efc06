/**
 * Every placeholder, in one alternation so that a single left-to-right pass
 * finds them all. The `${…}` forms come first so `${@:2}` is not read as `$@`.
 *
 * 1, 2: `${N:-default}` / `${@:-default}` / `${ARGUMENTS:-default}`
 * 3, 4: `${@:N}` / `${@:N:L}`
 * 5:    `$N`
 */
const PLACEHOLDER =
  /\$\{(\d+|@|ARGUMENTS):-([^}]*)\}|\$\{@:(\d+)(?::(\d+))?\}|\$ARGUMENTS|\$@|\$(\d+)/g;

const ARGUMENT_SEPARATOR = " ";

/**
 * Fills a template's placeholders with `args` in one pass over `content`:
 * an argument value or a default is inserted as is and never scanned again,
 * so arguments may safely contain `$1` or `${@}` text.
 *
 * - `$1` … `$N` (all the digits): that argument; `$0` and missing ones are empty.
 * - `$@`, `$ARGUMENTS`: all arguments joined by one space.
 * - `${N:-default}`, `${@:-default}`, `${ARGUMENTS:-default}`: the default when
 *   the value is missing or empty.
 * - `${@:N}`: the arguments from the N-th on; `${@:N:L}`: L of them (1-based,
 *   0 counts as 1).
 *
 * Names are case-sensitive, there is no escape, and any other `$` text stays.
 */
export function substituteArgs(content: string, args: readonly string[]): string {
  const all = args.join(ARGUMENT_SEPARATOR);
  const positional = (digits: string): string => {
    const index = Number(digits);
    return index === 0 ? "" : (args[index - 1] ?? "");
  };
  return content.replace(
    PLACEHOLDER,
    (
      _match: string,
      defaultName: string | undefined,
      defaultText: string | undefined,
      sliceStart: string | undefined,
      sliceLength: string | undefined,
      digits: string | undefined,
    ) => {
      if (defaultName !== undefined) {
        const value = /^\d+$/.test(defaultName) ? positional(defaultName) : all;
        return value === "" ? (defaultText ?? "") : value;
      }
      if (sliceStart !== undefined) {
        const from = Math.max(Number(sliceStart), 1) - 1;
        const to = sliceLength === undefined ? undefined : from + Number(sliceLength);
        return args.slice(from, to).join(ARGUMENT_SEPARATOR);
      }
      if (digits !== undefined) return positional(digits);
      // Only `$@` and `$ARGUMENTS` are left.
      return all;
    },
  );
}
