import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The README's Quickstart commands are run as written: the checkout's lines by
// .ci/run itself, the tarball's block (the one with `npm pack`) and the Other
// agents recipes by scripts/test-package.mjs, which reads them from the README.
// This holds the README and CI to each other: a command added to the
// Quickstart that nothing runs fails here.

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const readme = readFileSync(join(REPO, "README.md"), "utf8");
const ciLines = readFileSync(join(REPO, ".ci", "run"), "utf8")
  .split("\n")
  .map((l) => l.trim());
const packageTest = readFileSync(join(REPO, "scripts", "test-package.mjs"), "utf8");

/** The command lines of each sh block under the heading `heading`, up to the next heading of its level. */
function blocks(heading: string): string[][] {
  const start = readme.indexOf(`\n${heading}\n`);
  expect(start, `README heading ${heading}`).toBeGreaterThan(-1);
  const level = heading.split(" ")[0]?.length ?? 2;
  const rest = readme.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level}} `));
  const body = end === -1 ? rest : rest.slice(0, end);
  return [...body.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    (m[1] ?? "")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#")),
  );
}

describe("the README's commands", () => {
  it("the Quickstart's are each a line of .ci/run, or the tarball block that scripts/test-package.mjs runs", () => {
    const quickstart = blocks("## Quickstart");
    const tarballBlock = quickstart.find((lines) => lines.includes("npm pack")) ?? [];
    expect(tarballBlock).toEqual(["npm pack", "npm i -g ./sysprompt-*.tgz", "sysprompt render"]);
    const unrun = quickstart
      .filter((lines) => lines !== tarballBlock)
      .flat()
      .filter((line) => !ciLines.includes(line));
    expect(unrun).toEqual([]);
    expect(packageTest).toContain('readmeBlocks("## Quickstart")');
  });

  it("the Other agents recipes are read and run by scripts/test-package.mjs, which .ci/run runs", () => {
    expect(blocks("### Other agents").flat().length).toBeGreaterThanOrEqual(4);
    expect(packageTest).toContain('readmeCommands("### Other agents")');
    expect(ciLines).toContain("node scripts/test-package.mjs");
  });
});
