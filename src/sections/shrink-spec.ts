import { SHRINK_STEPS, type ShrinkSpec, type ShrinkStepName } from "../types.js";

const KNOWN_STEPS: ReadonlySet<string> = new Set(SHRINK_STEPS);

/**
 * Reads a section's `shrink:` value: `{ priority: N, steps: [...] }` with a
 * finite priority and a non-empty list of builtin step names, each once; or
 * `false` for "never shrink" (over a lower version that declared steps).
 * Returns the value, or the reason it is unusable (the caller drops the key).
 */
export function readShrinkSpec(
  value: unknown,
): { ok: true; spec: ShrinkSpec | null } | { ok: false; expected: string } {
  if (value === false) return { ok: true, spec: null };
  const shape = `false or { priority: <number>, steps: [<step>, …] } with steps among ${SHRINK_STEPS.join(", ")}`;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, expected: shape };
  }
  const { priority, steps, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) {
    return { ok: false, expected: `${shape} (unknown key ${JSON.stringify(extra[0])})` };
  }
  if (typeof priority !== "number" || !Number.isFinite(priority)) {
    return { ok: false, expected: `${shape} (priority must be a number)` };
  }
  if (!Array.isArray(steps) || steps.length === 0) {
    return { ok: false, expected: `${shape} (steps must be a non-empty list)` };
  }
  const unknown = steps.find((s) => typeof s !== "string" || !KNOWN_STEPS.has(s));
  if (unknown !== undefined) {
    return { ok: false, expected: `${shape} (unknown step ${JSON.stringify(unknown)})` };
  }
  if (new Set(steps).size !== steps.length) {
    return { ok: false, expected: `${shape} (each step at most once)` };
  }
  return { ok: true, spec: { priority, steps: steps as ShrinkStepName[] } };
}
