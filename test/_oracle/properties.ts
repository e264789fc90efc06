// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `$ARGUMENTS` is the placeholder syntax, not a forgotten template literal.
import { closeOpenBlocks } from "../../src/_fence.js";
import { expandPromptTemplateResult } from "../../src/prompt-templates/index.js";
import { withoutHidden } from "../../src/sections/user-text.js";
import { type OracleReading, oracleReading } from "./hidden-oracle.js";
import { hostileCase, type Pieces, shrinkCase } from "./hostile-markdown.js";

// The three properties the hidden-text oracle judges sysprompt's readers on
// (test/catalogue/hostile-hidden-oracle-scale.test.ts; /tmp/oracle60/run.mjs runs many more seeds).

/** Your words: a word no piece holds, then one more. */
export const MARKER = "Qzmarker";
const WORDS = `${MARKER} words`;

/** What a property made of a case: the text the oracle read, and whether sysprompt's reader failed it. */
export interface Outcome {
  text: string;
  reading: OracleReading;
  failed: boolean;
}

export type PropertyName = "closers" | "withoutHidden" | "withoutHiddenRaw" | "slashGuard";

/** Runs property `name` on the document before the marker and the one after (some use only the first). */
export function runProperty(name: PropertyName, before: string, after: string): Outcome {
  switch (name) {
    case "closers": {
      // a. A repository's text closed, then your words: they must show.
      const text = `${closeOpenBlocks(before)}\n\n${WORDS}`;
      const reading = oracleReading(text, MARKER);
      return { text, reading, failed: reading.verdict !== "shown" };
    }
    case "withoutHidden":
    case "withoutHiddenRaw": {
      // b. A project's section printing your words between its texts, closed at its end as the
      // render closes it (`withoutHiddenRaw`: not closed, as the brief wrote it): when the
      // section check keeps your words, a reader must see them.
      const printed = `${before}\n\n${WORDS}\n\n${after}`;
      const text = name === "withoutHidden" ? closeOpenBlocks(printed) : printed;
      const kept = withoutHidden(text).includes(MARKER);
      const reading = oracleReading(text, MARKER);
      return { text, reading, failed: kept && reading.verdict !== "shown" };
    }
    case "slashGuard": {
      // c. A project's slash template around `$ARGUMENTS`, expanded with your words: they must show.
      const content = `${before}$ARGUMENTS${after}`;
      const text = expandPromptTemplateResult(`/t ${WORDS}`, [
        { name: "t", content, source: "project", filePath: "/p/.pi/prompts/t.md" },
      ]).text;
      const reading = oracleReading(text, MARKER);
      return { text, reading, failed: reading.verdict !== "shown" };
    }
  }
}

/** A failure: the seed, the minimized pieces and what the oracle read. */
export interface Failure {
  property: PropertyName;
  seed: number;
  before: string;
  after: string;
  text: string;
  reading: OracleReading;
}

function safeRun(name: PropertyName, before: string, after: string): Outcome {
  try {
    return runProperty(name, before, after);
  } catch (error) {
    return {
      text: `${before}\n<crash: ${String(error)}>\n${after}`,
      reading: { verdict: "absent", why: ["crash"] },
      failed: true,
    };
  }
}

/**
 * Runs property `name` over seeds `from` .. `from + count - 1`; the first `minimized`
 * failures are minimized ({@link shrinkCase}), the rest kept as generated.
 */
export function failuresOf(
  name: PropertyName,
  from: number,
  count: number,
  minimized = Number.POSITIVE_INFINITY,
): Failure[] {
  const out: Failure[] = [];
  for (let seed = from; seed < from + count; seed++) {
    const start = hostileCase(seed);
    if (!safeRun(name, start.before.join(""), start.after.join("")).failed) continue;
    const small =
      out.length < minimized ? shrinkCase(start, (b, a) => safeRun(name, b, a).failed) : start;
    out.push(describe(name, seed, small));
  }
  return out;
}

function describe(
  property: PropertyName,
  seed: number,
  pieces: { before: Pieces; after: Pieces },
): Failure {
  const before = pieces.before.join("");
  const after = property === "closers" ? "" : pieces.after.join("");
  const { text, reading } = safeRun(property, before, after);
  return { property, seed, before, after, text, reading };
}

/** A failure as a test prints it. */
export function formatFailure(f: Failure): string {
  return [
    `property ${f.property}, seed ${f.seed}: the oracle reads ${f.reading.verdict} (${f.reading.why.join(" > ")})`,
    `  before: ${JSON.stringify(f.before)}`,
    f.property === "closers" ? "" : `  after:  ${JSON.stringify(f.after)}`,
    `  text read: ${JSON.stringify(f.text)}`,
  ]
    .filter((line) => line !== "")
    .join("\n");
}
