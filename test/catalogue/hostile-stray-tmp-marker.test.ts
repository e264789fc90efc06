import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCase } from "./_harness.js";

// The catalogue's projects are made under the machine's temp folder, which
// anyone may write to: a stray `/tmp/.git` (left for a moment by someone's
// script) was a marker above every case's project, and a render said
// `root-marker-refused` for it, so a case rendered while it was there got a
// diagnostic its expectation does not hold (ci82's `partial-unknown-in-partial`,
// fx82d item 5). A case's project search now stops at the case's own folder
// (`caseOptions`, the one place the harness makes a case's options): a
// marker above it is not looked at. Here the temp folder is one anyone may
// write to, with a `.git` in it, for both renders of the case.

let stray: string | undefined;
const saved = process.env.TMPDIR;

afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  if (stray !== undefined) rmSync(stray, { recursive: true, force: true });
  stray = undefined;
});

describe("the catalogue's cases do not depend on a clean temp folder", () => {
  it("stray-marker-above: a .git in the world-writable folder above a case's root says nothing", async () => {
    stray = realpathSync(mkdtempSync(join(tmpdir(), "sysprompt-stray-")));
    mkdirSync(join(stray, ".git"));
    chmodSync(stray, 0o1777);
    process.env.TMPDIR = stray;
    await runCase({
      name: "stray-marker-above",
      layout: [["project/app/.pi/sections/extra.md", "---\norder: 80\n---\nExtra words.\n"]],
      changed: ["extra"],
      expected: () => [],
      verify: (bad, clean) => {
        for (const r of [bad, clean]) {
          expect(r.result.diagnostics.filter((d) => d.code === "root-marker-refused")).toEqual([]);
        }
      },
    });
  });
});
