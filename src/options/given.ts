// The options a caller gave, checked against the registry before anything is read.
import { describe } from "../_text.js";
import { SyspromptError } from "../types.js";
import { isPlainObject } from "./checks.js";
import { OPTIONS, type SystemPromptOptions } from "./registry.js";

/**
 * Checks the type of every option and that no key is unknown.
 *
 * @throws SyspromptError naming the option and what it must be.
 */
export function checkOptionTypes(options: SystemPromptOptions): void {
  if (!isPlainObject(options)) {
    throw new SyspromptError("bad-option", `options must be an object, got ${describe(options)}`);
  }
  for (const [key, value] of Object.entries(options)) {
    if (!Object.hasOwn(OPTIONS, key)) {
      throw new SyspromptError(
        "bad-option",
        `unknown option "${key}"; the options are: ${Object.keys(OPTIONS).join(", ")}`,
      );
    }
    const problem = optionValueProblem(key as keyof SystemPromptOptions, value);
    if (problem !== undefined) throw new SyspromptError("bad-option", `${key}: ${problem}`);
  }
}

/**
 * Why `value` cannot be the option `key` (`must be …, got …`), or undefined
 * when its type is right. The type check only: `now`, `treeMtime` and
 * `sections` are checked more closely by {@link normalizeOptions}. Shared with
 * the snapshot scenario files, whose keys are options.
 */
export function optionValueProblem(
  key: keyof SystemPromptOptions,
  value: unknown,
): string | undefined {
  // An option set to undefined is the same as one left out.
  const expected = value === undefined ? undefined : OPTIONS[key].check(value);
  return expected === undefined ? undefined : `must be ${expected}, got ${describe(value)}`;
}
