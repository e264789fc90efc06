import { constants } from "node:os";
import { describe, expect, it } from "vitest";
import { STOP_SIGNALS } from "../../src/cli/io.js";
import { readDoc } from "../docs/_docs.js";

// docs/cli.md's exit-code table left out 131 (SIGQUIT), which every command
// returns since SIGQUIT joined the signals the CLI stops on (review rev56d
// F3). The table's signal row is read against the one list, STOP_SIGNALS:
// each signal there is named in it with its status, 128 + its number.

/** The exit-code table's row whose first cell starts with 130. */
function signalRow(): { codes: number[]; text: string } {
  const row = readDoc("docs/cli.md")
    .split("\n")
    .find((line) => /^\| 130\b/.test(line));
  if (row === undefined) throw new Error("docs/cli.md: no exit-code row for 130");
  const [, codes = "", text = ""] = row.split("|");
  return { codes: codes.split(",").map((c) => Number(c.trim())), text };
}

describe("docs: the exit codes of the signals the CLI stops on", () => {
  it("names each of STOP_SIGNALS, and its 128 + number, in the signal row", () => {
    const row = signalRow();
    const expected = STOP_SIGNALS.map((name) => 128 + constants.signals[name]);
    expect([...row.codes].sort()).toEqual([...expected].sort());
    for (const name of STOP_SIGNALS) expect(row.text).toContain(name);
  });
});
