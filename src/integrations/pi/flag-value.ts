import type { Diagnostic } from "../../types.js";
import { jsonPrintable } from "./_printable.js";
import type { PiFlagArgument } from "./argv.js";

const OFF_WORDS = new Set(["false", "0", "no", "off"]);
const ON_WORDS = new Set(["true", "1", "yes", "on"]);

/** How much of a swallowed value the message quotes. */
const MAX_QUOTED = 60;

/**
 * Whether a boolean extension flag is on, from what the command line said.
 * pi turns a boolean flag on whatever follows it, and takes the next argument
 * as its value when that does not start with `-` or `@`: `pi -p --flag "fix
 * the tests"` sends no message at all, and `--flag false` turns the flag on.
 * Here an explicit `false` / `0` / `no` / `off` (as the next argument or after
 * `=`) turns it off, `true` / `1` / `yes` / `on` on, and any other value keeps
 * it on with a warning that says what pi did and what to type instead.
 * `piValue` (`pi.getFlag`) decides when the flag is not on the command line
 * (an SDK host set it).
 */
export function booleanFlag(
  name: string,
  written: PiFlagArgument | undefined,
  piValue: boolean | string | undefined,
): { on: boolean; diagnostics: Diagnostic[] } {
  if (written === undefined) return { on: piValue === true || piValue === "true", diagnostics: [] };
  if (written.value === true) return { on: true, diagnostics: [] };
  const word = written.value.trim().toLowerCase();
  if (OFF_WORDS.has(word)) return { on: false, diagnostics: [] };
  if (ON_WORDS.has(word)) return { on: true, diagnostics: [] };
  const quoted = quote(written.value);
  const message = written.attached
    ? `--${name}=${quoted} is not true or false; the flag is on. Write --${name} alone to turn it on, or --${name}=false to turn it off`
    : `--${name} takes no value, so pi read ${quoted} as its value and not as a message; the flag is on. Put the flag after the message (pi -p ${quoted} --${name}) or end the options with -- (pi -p --${name} -- ${quoted})`;
  return { on: true, diagnostics: [{ level: "warning", code: "pi-flag-value", message }] };
}

/** A value from the command line, quoted and cut short so a message stays one readable line. */
function quote(value: string): string {
  const chars = [...value];
  const cut = chars.length > MAX_QUOTED ? `${chars.slice(0, MAX_QUOTED).join("")}…` : value;
  // JSON writes each `\` as `\\`: its backslashes are not marked again (rev101e F4).
  return jsonPrintable(JSON.stringify(cut));
}
