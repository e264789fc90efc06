import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { REPO } from "./_docs.js";

// The generated references in docs/ (options, template data, the CLI): each page holds its
// part between `<!-- NAME:start -->` and `<!-- NAME:end -->`, and the part must be what the
// generator gives now. UPDATE_REFERENCES=1 (or the test's own variable) rewrites it first.

/** The page's text between the markers, and the page with `part` put there instead. */
export function between(text: string, name: string, page: string) {
  const start = `<!-- ${name}:start -->\n`;
  const end = `<!-- ${name}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a === -1 || b < a) throw new Error(`${page} has lost its ${name} markers`);
  return {
    part: text.slice(a + start.length, b),
    with: (part: string) => text.slice(0, a + start.length) + part + text.slice(b),
  };
}

/**
 * Expects `page` (from the repository root) to hold `generated` between the
 * `name` markers; `update` is the variable that regenerates it, and `test` the
 * file to run with it, both named in the failure.
 */
export function expectGenerated(
  page: string,
  name: string,
  generated: string,
  regenerate: { update: string; test: string },
): void {
  const path = join(REPO, page);
  if (process.env.UPDATE_REFERENCES || process.env[regenerate.update]) {
    writeFileSync(path, between(readFileSync(path, "utf8"), name, page).with(generated));
  }
  expect(
    between(readFileSync(path, "utf8"), name, page).part,
    `${page} is stale: regenerate with ${regenerate.update}=1 npx vitest run ${regenerate.test}`,
  ).toBe(generated);
}
