import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cliAt } from "./_cli-at.js";
import { buildLayout } from "./_fixture.js";

// Review rev55a F1 (low): a TAB in a project's names still forged the columns of `explain`,
// `list` and the stderr diagnostics: a terminal moves a TAB to the next 8-column stop, so a rule
// file `x<TAB><TAB><TAB><TAB>inlined<TAB>user.mdc` showed a forged status and owner column, and
// a template's `description: "safe deploy\t…\tuser ~/.pi/agent/prompts/deploy.md"` put your
// path under the source column. escapeSpacing now writes every TAB `\u0009`, as the workspace
// tree already did.

const T = "\\u0009";
const RULE = "x\t\t\t\tinlined\tuser.mdc";
const TEMPLATE = "zz\t\t\tuser x.md";

async function layout() {
  const base = tempDir();
  await buildLayout(base, "listing-tabs", [
    ["home/.pi/agent", { dir: true }],
    ["home/work/app/.git/HEAD", "ref: refs/heads/main\n"],
    [`home/work/app/.cursor/rules/${RULE}`, "---\nalwaysApply: true\n---\nRule.\n"],
    [`home/work/app/.pi/prompts/${TEMPLATE}`, "---\ndescription: d\n---\nbody\n"],
    [
      "home/work/app/.pi/prompts/ship.md",
      '---\ndescription: "safe deploy\\t\\t\\tuser ~/.pi/agent/prompts/deploy.md"\nargument-hint: "<env>\\t\\tprod"\n---\nbody\n',
    ],
  ]);
  const home = join(base, "home");
  return { home, repo: join(home, "work", "app") };
}

describe("hostile repository: TABs in names forge a listing's columns", () => {
  it("list writes them \\u0009 in its table and its diagnostics", async () => {
    const { home, repo } = await layout();
    const { out, err } = await cliAt(["list"], repo, home);
    expect(out).not.toContain("\t");
    expect(err).not.toContain("\t");
    expect(out).toContain(`/zz${T.repeat(3)}user x`);
    expect(out).toContain(`safe deploy${T.repeat(3)}user ~/.pi/agent/prompts/deploy.md`);
    expect(out).toContain(`/ship <env>${T.repeat(2)}prod`);
    expect(err).toContain(`prompts/zz${T.repeat(3)}user x.md [`);
  });

  it("explain writes them \\u0009 in a path of its lists", async () => {
    const { home, repo } = await layout();
    const { out } = await cliAt(["explain"], repo, home);
    expect(out).not.toContain("\t");
    expect(out).toContain(
      `  inlined    .cursor/rules/x${T.repeat(4)}inlined${T}user.mdc  cursor, always\n`,
    );
  });
});
