import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandLines, docPart, fenced, REPO } from "../docs/_docs.js";

// The README's Quickstart commands are run as written: the checkout's lines by
// .ci/run itself, the tarball's block (the one with `npm pack`) and the Other
// agents recipes of docs/agents.md by scripts/test-package.mjs, which reads them
// from the page. This holds the docs and CI to each other: a command added to
// the Quickstart that nothing runs fails here (test/docs/sh-blocks.test.ts does
// the same for every sh block of every page).

const ciLines = readFileSync(join(REPO, ".ci", "run"), "utf8")
  .split("\n")
  .map((l) => l.trim());
const packageTest = readFileSync(join(REPO, "scripts", "test-package.mjs"), "utf8");

/** The command lines of each sh block of `page` under `heading`, its subheadings included. */
function blocks(page: string, heading: string): string[][] {
  return fenced(docPart(page, heading), "sh").map(commandLines);
}

describe("the README's commands", () => {
  it("the Quickstart's are each a line of .ci/run, or the tarball block that scripts/test-package.mjs runs", () => {
    const quickstart = blocks("README.md", "## Quickstart");
    const tarballBlock = quickstart.find((lines) => lines.includes("npm pack")) ?? [];
    expect(tarballBlock).toEqual(["npm pack", "npm i -g ./sysprompt-*.tgz", "sysprompt render"]);
    const unrun = quickstart
      .filter((lines) => lines !== tarballBlock)
      .flat()
      .filter((line) => !ciLines.includes(line));
    expect(unrun).toEqual([]);
    expect(packageTest).toContain('docBlocks("README.md", "## Quickstart")');
  });

  it("the Other agents recipes are read and run by scripts/test-package.mjs, which .ci/run runs", () => {
    expect(blocks("docs/agents.md", "### Other agents").flat().length).toBeGreaterThanOrEqual(4);
    expect(packageTest).toContain('docCommands("docs/agents.md", "### Other agents")');
    expect(ciLines).toContain("node scripts/test-package.mjs");
  });
});
