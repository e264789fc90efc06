import { describe, expect, it } from "vitest";
import { oracleHidden } from "../_oracle/hidden-oracle.js";
import { type Failure, failuresOf, formatFailure, MARKER } from "../_oracle/properties.js";

// A differential oracle for sysprompt's three readers of what an HTML reader never shows:
// CommonMark's reference renderer (commonmark) makes HTML of a seeded hostile document
// (test/_oracle/hostile-markdown.ts), parse5 (a real HTML tree builder) parses it in a <div>, and
// your words must land in a text node no never-shown element holds (test/_oracle/hidden-oracle.ts).
// The seeds are fixed: the same documents every run. /tmp/oracle60/run.mjs runs many more;
// /tmp/oracle60/REPORT.md groups what fails on main by cause (scope boundaries, formatting
// elements reconstructed after a closer, nested never-shown elements, <select>, comments, raw
// text), for the parse5-based reader that replaces the hand-written ones.
//
// On 5c0c3171 (the hand-written readers) seeds 1-3,000 failed a 537, b 95, c 548 documents.
// The HTML tree builder (src/sections/html-reading.ts) leaves the few below, the known limits
// docs/trust.md records (closers inside a foreign element's integration point, `<select>` in
// `<svg>`, and for the slash guard the same foreign-content cases; rev61a F5/F9/F10 took it from
// 9 to 3, 1 with the renderer-tag reader: a fence closed before its closers, a last check after them): each property may fail
// at most as many documents as today, and every one is printed, so a new failure is seen.
const KNOWN = { closers: 0, withoutHidden: 2, slashGuard: 1 } as const;

/** Documents a property is judged on, and how many failures are minimized for the message. */
const SEEDS = 3000;
const MINIMIZED = 5;

function report(failures: readonly Failure[]): string {
  if (failures.length === 0) return "";
  return `${failures.length} of ${SEEDS} documents fail; the first, minimized:\n\n${failures
    .slice(0, MINIMIZED)
    .map(formatFailure)
    .join("\n\n")}`;
}

describe("the hidden-text oracle (commonmark, then parse5) judges sysprompt's readers", () => {
  it("the oracle itself: shown, hidden (an element, a comment) and absent (an attribute)", () => {
    expect(oracleHidden(`a\n\n${MARKER} words`, MARKER)).toBe("shown");
    expect(oracleHidden(`<div hidden>\n\n${MARKER}\n\n</div>`, MARKER)).toBe("hidden");
    // A start tag never ended takes what follows as its attribute's value.
    expect(oracleHidden(`<div title="\n\n${MARKER}`, MARKER)).toBe("absent");
    expect(oracleHidden(`a <!-- ${MARKER} -->`, MARKER)).toBe("absent");
    expect(oracleHidden(`<span title="${MARKER}">x</span>`, MARKER)).toBe("absent");
    // Formatting elements are reconstructed in the next paragraph: `</p>` does not end them.
    expect(oracleHidden(`<p><b hidden>x</p>\n\n${MARKER}`, MARKER)).toBe("hidden");
    // Scope boundaries: a </div> inside a <table> the div holds ends nothing.
    expect(oracleHidden(`<div hidden><table></div>\n\n${MARKER}`, MARKER)).toBe("hidden");
    // <noscript> is shown (decided), but read with scripting off too: its content is markup then.
    expect(oracleHidden(`<noscript>\n\n${MARKER}\n\n</noscript>`, MARKER)).toBe("shown");
  });

  // a. A repository's text (AGENTS.md, a rule file) closed by closeOpenBlocks, then your words.
  it("a. closeOpenBlocks: your words after a closed repository text are shown", () => {
    const failures = failuresOf("closers", 1, SEEDS, MINIMIZED);
    expect(failures.length, report(failures)).toBeLessThanOrEqual(KNOWN.closers);
  });

  // b. A project's section printing your words between its texts: when withoutHidden keeps
  // them, a reader must see them. Judged on the section as the render leaves it, closed at its
  // end (closeOpenBlocksOnOwnLine): an element never closed is read as text by design
  // (docs/trust.md), so the raw text fails wherever a document ends open (REPORT.md: b-raw).
  it("b. withoutHidden: your words it keeps are shown", () => {
    const failures = failuresOf("withoutHidden", 1, SEEDS, MINIMIZED);
    expect(failures.length, report(failures)).toBeLessThanOrEqual(KNOWN.withoutHidden);
  });

  // c. A project's slash template `D$ARGUMENTSD2` expanded with your words.
  it("c. the slash-template guard: your arguments are shown", () => {
    const failures = failuresOf("slashGuard", 1, SEEDS, MINIMIZED);
    expect(failures.length, report(failures)).toBeLessThanOrEqual(KNOWN.slashGuard);
  });
});
