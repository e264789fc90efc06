import { describe } from "./_text.js";
import { SyspromptError } from "./types.js";

/**
 * ISO 8601 extended format: a date, or a date and time (`T` or a space
 * between, as RFC 3339 allows) with optional seconds, fraction and zone.
 * Linear: no nested or overlapping quantifiers.
 */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The clock option as a Date: a Date, epoch milliseconds, or an ISO 8601
 * string. A string without an offset is UTC, so the date never depends on the
 * machine's time zone; anything JavaScript would merely guess at ("Jan 1
 * 2026", "2026/01/01") or roll over (2026-02-30) is refused. Shared by the
 * API and the CLI's `--now`; `what` names the option in the message.
 *
 * @throws SyspromptError when the value is not a valid time.
 */
export function parseNow(now: Date | string | number | undefined, what = "now"): Date {
  if (now === undefined) return new Date();
  if (typeof now === "string") {
    const time = parseIsoTime(now);
    if (time === undefined) {
      throw new SyspromptError(
        "bad-option",
        `${what}: "${now}" is not an ISO 8601 date or time; pass one such as 2026-01-31 or 2026-01-31T12:00:00Z (a time without an offset is UTC)`,
      );
    }
    return new Date(time);
  }
  const date = now instanceof Date ? new Date(now.getTime()) : new Date(now);
  if ((typeof now !== "number" && !(now instanceof Date)) || Number.isNaN(date.getTime())) {
    throw new SyspromptError(
      "bad-option",
      `${what}: ${describe(now)} is not a time; pass a Date, epoch milliseconds or an ISO 8601 string`,
    );
  }
  return date;
}

/** Epoch milliseconds of an ISO 8601 string, or undefined when it is not one or names no real time. */
function parseIsoTime(text: string): number | undefined {
  const m = ISO_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) =>
    Number(m[i] ?? 0),
  ) as [number, number, number, number, number, number];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(utc);
  // Date.UTC rolls 2026-02-30 over to March; a clock option that does so is a typo.
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() + 1 !== month ||
    check.getUTCDate() !== day
  ) {
    return undefined;
  }
  const zone = m[8];
  if (zone === undefined || zone === "Z") return utc;
  const offsetHours = Number(zone.slice(1, 3));
  const offsetMinutes = Number(zone.slice(-2));
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const sign = zone.startsWith("-") ? -1 : 1;
  return utc - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}
