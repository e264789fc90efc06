import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { BUILT_CLI, ensureBuilt } from "../catalogue/_built.js";
import { docPart, fenced, REPO, type ShBlock, shBlocks } from "../docs/_docs.js";

// The sh blocks of the README and docs/ marked `<!-- sh: run by
// test/package/docs-commands.test.ts -->`, run as written in a project of
// their own: `sysprompt` and `npx sysprompt` are stand-ins for this checkout's
// built CLI (npx would otherwise ask the registry), and the project's `dist`
// links to the checkout's for the lines that run `node dist/src/cli/bin.js`.
// Each case sets up what its page says the reader has, and checks what the
// page says comes out.

const ME = "test/package/docs-commands.test.ts";

interface Project {
  root: string;
  dir: string;
  bin: string;
}

function project(files: Record<string, string> = {}): Project {
  const root = tempDir();
  const dir = join(root, "project");
  mkdirSync(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  symlinkSync(join(REPO, "dist"), join(dir, "dist"));
  const bin = join(root, "bin");
  mkdirSync(bin);
  const cli = `exec "${process.execPath}" "${BUILT_CLI}" "$@"`;
  writeFileSync(join(bin, "sysprompt"), `#!/bin/sh\n${cli}\n`);
  writeFileSync(join(bin, "npx"), `#!/bin/sh\n[ "$1" = sysprompt ] || exit 127\nshift\n${cli}\n`);
  chmodSync(join(bin, "sysprompt"), 0o755);
  chmodSync(join(bin, "npx"), 0o755);
  return { root, dir, bin };
}

function sh(script: string, p: Project) {
  const out = spawnSync("sh", ["-e", "-c", script], {
    cwd: p.dir,
    encoding: "utf8",
    env: {
      PATH: `${p.bin}:${process.env.PATH ?? ""}`,
      HOME: join(p.root, "home"),
      XDG_CACHE_HOME: join(p.root, "cache"),
    },
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** A run that went as the docs say a plain run goes: exit 0, nothing on stderr. */
function clean(script: string, p: Project): string {
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
      const p = project({ "AGENTS.md": "Run npm test before you commit.\n" });
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
      const p = project({
        ".pi/prompts/review.md":
          "---\ndescription: Review a file for one kind of problem.\n---\nReview $1 for $2.\n",
        ".pi/skills/pdf/SKILL.md":
          "---\nname: pdf\ndescription: Extract text and tables from PDF files.\n---\nUse pdftotext -layout.\n",
      });
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
      const p = project({
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
      const p = project({
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
