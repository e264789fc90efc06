import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../catalogue/_built.js";
import { docPart, fenced, type ShBlock, shBlocks } from "../docs/_docs.js";
import { type DocsProject, docsProject, sh } from "./_docs-project.js";

// The sh blocks of the README and docs/ marked `<!-- sh: run by
// test/package/docs-commands.test.ts -->`, run as written in a project of
// their own (see _docs-project.ts). Each case sets up what its page says the
// reader has, and checks what the page says comes out.

const ME = "test/package/docs-commands.test.ts";

/** A run that went as the docs say a plain run goes: exit 0, nothing on stderr. */
function clean(script: string, p: DocsProject): string {
  const out = sh(script, p);
  expect({ script, status: out.status, stderr: out.stderr }).toEqual({
    script,
    status: 0,
    stderr: "",
  });
  return out.stdout;
}

const CASES: { page: string; heading: string; run: (blocks: string[]) => void }[] = [
  {
    page: "README.md",
    heading: "## Override one section in five minutes",
    run: ([list = "", override = "", more = ""]) => {
      const p = docsProject({ "AGENTS.md": "Run npm test before you commit.\n" });
      expect(clean(list, p)).toMatch(/^30 +rules +builtin +rendered /m);
      expect(clean(override, p)).toMatch(
        /\n- Run `npm test` before you say a change is done\.\n<\/rules>$/,
      );
      expect(clean("sysprompt sections", p)).toMatch(
        /^30 +rules +project +rendered +base,overrides:builtin /m,
      );
      const explained = clean(more, p);
      expect(explained).toMatch(/^ +65 +team +project +\.pi\/sections\/team\.md /m);
      expect(explained).not.toMatch(/^ +\d+ +environment /m);
      expect(explained).toMatch(/^sysprompt check: .*: no problems$/m);
    },
  },
  {
    page: "docs/context.md",
    heading: "## Skills and slash-command templates",
    run: ([block = ""]) => {
      const p = docsProject(
        {
          ".pi/prompts/review.md":
            "---\ndescription: Review a file for one kind of problem.\n---\nReview $1 for $2.\n",
          ".pi/skills/pdf/SKILL.md":
            "---\nname: pdf\ndescription: Extract text and tables from PDF files.\n---\nUse pdftotext -layout.\n",
        },
        { linkDist: true },
      );
      const out = clean(block, p);
      expect(out).toMatch(/^ {2}\/review +Review a file for one kind of problem\. +project /m);
      expect(out).toMatch(/^ {2}pdf +Extract text and tables from PDF files\. +project /m);
      expect(out).toContain("Review src/a.ts for errors.");
      expect(out).toContain('<skill name="pdf" location=');
      expect(out).toMatch(/The user's request:\nget the tables$/);
    },
  },
  {
    page: "docs/sections.md",
    heading: "## Checking and ejecting templates",
    run: ([block = ""]) => {
      const p = docsProject({
        ".pi/sections/team.md": "---\norder: 65\n---\nThe team: {{vars.team}}.\n",
        ".pi/sysprompt.yaml": "vars:\n  team: payments\n",
      });
      expect(clean(block, p)).toMatch(/^sysprompt check: .*: no problems$/m);
      writeFileSync(join(p.dir, ".pi/sections/team.md"), "{{shout team}}\n");
      const broken = sh(block, p);
      expect([broken.status, broken.stdout]).toEqual([
        1,
        expect.stringContaining("[unknown-helper]"),
      ]);
    },
  },
  {
    page: "docs/testing.md",
    heading: "## Snapshot tests",
    run: ([block = ""]) => {
      // The scenario the page shows, with the fixture it names.
      const [scenario = ""] = fenced(docPart("docs/testing.md", "## Snapshot tests"), "yaml");
      const p = docsProject({
        "snapshots/with-tree.scenario.yaml": scenario,
        "snapshots/fixtures/with-tree/project/AGENTS.md": "Run npm test before you commit.\n",
        "snapshots/fixtures/with-tree/project/src/util.ts": "export {};\n",
      });
      const [check = "", update = ""] = block.split("\n").filter((l) => l.startsWith("npx "));
      const missing = sh(check, p);
      expect([missing.status, missing.stdout]).toEqual([1, expect.stringContaining("with-tree")]);
      clean(update, p);
      const golden = readFileSync(join(p.dir, "snapshots/with-tree.md"), "utf8");
      expect(golden).toContain("Current working directory: <scenario>/fixtures/with-tree/project");
      expect(golden).toContain("Today's focus: the 2.4.0 release.");
      clean(check, p);
      expect(existsSync(join(p.dir, "snapshots/with-tree.diagnostics.txt"))).toBe(false);
    },
  },
];

describe("the docs' sh blocks run here", () => {
  const mine = shBlocks().filter((b) => b.marker === `run by ${ME}`);
  const of = (c: { page: string; heading: string }) =>
    mine.filter((b: ShBlock) => b.page === c.page && b.heading === c.heading).map((b) => b.text);

  beforeAll(async () => {
    await ensureBuilt();
  }, 300_000);

  it("has a case for every block marked as run here, and a block for every case", () => {
    const keys = (xs: { page: string; heading: string }[]) =>
      [...new Set(xs.map((x) => `${x.page} ${x.heading}`))].sort();
    expect(keys(mine)).toEqual(keys(CASES));
  });

  for (const c of CASES) {
    it(`${c.page}: ${c.heading}`, { timeout: 120_000 }, () => {
      c.run(of(c));
    });
  }
});
