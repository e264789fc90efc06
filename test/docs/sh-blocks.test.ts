import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandLines, REPO, type ShBlock, shBlocks } from "./_docs.js";

// Every shell block of the README and docs/ (an sh, bash, shell, console or
// zsh fence, or an untagged one that starts with a `$ ` command) says, in the
// comment on the line above it, what runs it: `<!-- sh: run by FILE -->` or `<!-- sh: not run:
// REASON -->`. This holds the claim to the file: .ci/run must hold each line
// as written; any other runner must read the block by its page and heading
// (and a script must be one .ci/run runs). A block with no comment fails, so a
// command added to the docs that nothing runs fails here.

const ci = readFileSync(join(REPO, ".ci", "run"), "utf8");
const ciLines = ci.split("\n").map((l) => l.trim());

/** Why a block's marker does not hold, or null when it does. */
function unheld(block: ShBlock): string | null {
  const where = `${block.page}:${block.line} (${block.heading})`;
  const marker = block.marker;
  if (marker === null)
    return `${where}: no <!-- sh: run by FILE --> or <!-- sh: not run: REASON -->`;
  const notRun = /^not run: (.+)$/.exec(marker);
  if (notRun) return (notRun[1] ?? "").length >= 30 ? null : `${where}: say why it is not run`;
  const by = /^run by (\S+)$/.exec(marker)?.[1];
  if (!by) return `${where}: "${marker}" is neither "run by FILE" nor "not run: REASON"`;
  if (by === ".ci/run") {
    const missing = commandLines(block.text).filter((line) => !ciLines.includes(line));
    return missing.length ? `${where}: not lines of .ci/run: ${missing.join(" | ")}` : null;
  }
  if (!existsSync(join(REPO, by))) return `${where}: no file ${by}`;
  const runner = readFileSync(join(REPO, by), "utf8");
  if (!runner.includes(`"${block.page}"`) || !block.within.some((h) => runner.includes(`"${h}"`))) {
    return `${where}: ${by} does not read "${block.page}" and "${block.heading}"`;
  }
  if (by.startsWith("scripts/") && !ciLines.includes(`node ${by}`)) {
    return `${where}: .ci/run does not run ${by}`;
  }
  if (!by.startsWith("scripts/") && !/^test\/.+\.test\.ts$/.test(by)) {
    return `${where}: ${by} is neither a script .ci/run runs nor a test`;
  }
  return null;
}

describe("the docs' sh blocks", () => {
  const blocks = shBlocks();

  it("each is run by a test or .ci/run, or says why not", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(15);
    expect(blocks.flatMap((b) => unheld(b) ?? [])).toEqual([]);
  });

  it("the check can fail: an unmarked block, a line .ci/run lacks, a runner that reads another part", () => {
    const block = {
      page: "README.md",
      heading: "## Quickstart",
      within: ["# sysprompt", "## Quickstart"],
      line: 1,
      text: "npm ci\n",
    };
    expect(unheld({ ...block, marker: null })).toContain("no <!-- sh: run by FILE -->");
    expect(unheld({ ...block, marker: "run by .ci/run" })).toBeNull();
    expect(unheld({ ...block, text: "npm run nothing\n", marker: "run by .ci/run" })).toContain(
      "not lines of .ci/run: npm run nothing",
    );
    expect(unheld({ ...block, marker: "run by scripts/test-package.mjs" })).toBeNull();
    expect(
      unheld({
        ...block,
        heading: "## Elsewhere",
        within: ["## Elsewhere"],
        marker: "run by scripts/test-package.mjs",
      }),
    ).toContain('does not read "README.md" and "## Elsewhere"');
    expect(unheld({ ...block, marker: "not run: later" })).toContain("say why");
  });
});
