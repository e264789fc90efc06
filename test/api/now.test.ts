import { afterEach, describe, expect, it } from "vitest";
import { parseNow } from "../../src/_time.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import { cli, pinMachine, usageHint } from "../cli/_run.js";
import { pinned, tempDir } from "./_helpers.js";

pinMachine();

const savedTz = process.env.TZ;
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const iso = (value: Parameters<typeof parseNow>[0]) => parseNow(value).toISOString();

const notIso = (what: string, value: string) =>
  new SyspromptError(
    "bad-option",
    `${what}: "${value}" is not an ISO 8601 date or time; pass one such as 2026-01-31 or 2026-01-31T12:00:00Z (a time without an offset is UTC)`,
  );

describe("the clock (now / --now)", () => {
  it("reads ISO 8601 dates and times; without an offset they are UTC, whatever the machine's zone", () => {
    // The farthest-ahead zone: read as local time, 2026-01-01 would be 2025-12-31 in UTC.
    process.env.TZ = "Pacific/Kiritimati";
    expect(
      [
        "2026-01-01",
        "2026-01-01T10:00",
        "2026-01-01 10:00:30",
        "2026-01-01T10:00:30.1234Z",
        "2026-01-01T23:30:00-05:00",
        "2026-01-01T01:00:00+1400",
        "2024-02-29T00:00:00Z",
      ].map(iso),
    ).toEqual([
      "2026-01-01T00:00:00.000Z",
      "2026-01-01T10:00:00.000Z",
      "2026-01-01T10:00:30.000Z",
      "2026-01-01T10:00:30.123Z",
      "2026-01-02T04:30:00.000Z",
      "2025-12-31T11:00:00.000Z",
      "2024-02-29T00:00:00.000Z",
    ]);
    expect([iso(new Date(Date.UTC(2026, 0, 1))), iso(Date.UTC(2026, 0, 1))]).toEqual([
      "2026-01-01T00:00:00.000Z",
      "2026-01-01T00:00:00.000Z",
    ]);
  });

  it("anything else is a SyspromptError, not a guess in the machine's time zone", () => {
    for (const value of [
      "2026/01/01",
      "Jan 1 2026",
      "01/02/2026",
      "yesterday",
      "2026-1-1",
      "2026-02-30",
      "2025-02-29",
      "2026-13-01",
      "2026-01-01T24:00:00Z",
      "2026-01-01T10:60Z",
      "2026-01-01T10:00:00+25:00",
      "2026-01-01T10:00:00 Z",
      " 2026-01-01",
      "",
    ]) {
      expect(() => parseNow(value)).toThrow(notIso("now", value));
    }
    expect(() => parseNow(Number.NaN)).toThrow(
      new SyspromptError(
        "bad-option",
        "now: NaN is not a time; pass a Date, epoch milliseconds or an ISO 8601 string",
      ),
    );
    expect(() => parseNow(new Date("nope"))).toThrow(
      new SyspromptError(
        "bad-option",
        "now: an invalid date is not a time; pass a Date, epoch milliseconds or an ISO 8601 string",
      ),
    );
  });

  it("renderSystemPrompt rejects a non-ISO now before reading anything", async () => {
    await expect(renderSystemPrompt(pinned(tempDir(), { now: "Jan 1 2026" }))).rejects.toThrow(
      notIso("now", "Jan 1 2026"),
    );
  });

  it("the CLI uses the same check: exit 2 with the message", async () => {
    for (const value of ["2026/01/01", "2026-02-30"]) {
      expect(await cli(tempDir(), ["render", "--now", value], false)).toEqual({
        code: 2,
        stdout: "",
        stderr: `sysprompt: ${notIso("--now", value).message}\n${usageHint("render")}`,
      });
    }
  });
});
