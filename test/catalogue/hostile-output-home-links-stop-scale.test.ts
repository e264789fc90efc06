import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev56b F3: `-o`'s look at where your home folder's links lead has a budget of names
// looked up, but past it each link was still read (`readlink`, taken as written) and every folder
// still listed: 3 x 4,000 links to a folder 300 deep cost 0.5-0.9 s more than a plain home. Now
// the look stops at the budget: no further folder listed, no further link read, and the warning
// says how many links and folders were left. Slow tier: a render and a folder 300 deep.

const calls = { readlink: 0, opendir: 0 };

vi.mock("../../src/_io.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/_io.js")>();
  return {
    ...actual,
    readlink: (...args: Parameters<typeof actual.readlink>) => {
      calls.readlink++;
      return actual.readlink(...args);
    },
    opendirSync: (...args: Parameters<typeof actual.opendirSync>) => {
      calls.opendir++;
      return actual.opendirSync(...args);
    },
  };
});

const LEVELS = 300;
const LINKS = 150;

describe("hostile-output-home-links: past its budget, -o's look at your home reads nothing more", () => {
  it("links to a folder 300 deep in three run-by-name folders: read until the budget, then counted", async () => {
    const root = tempDir();
    const home = join(root, "home");
    for (const dir of ["p/.git", "agent"]) mkdirSync(join(root, dir), { recursive: true });
    const deep = join(root, ...Array.from({ length: LEVELS }, () => "d"));
    mkdirSync(deep, { recursive: true });
    const folders = [".config", ".config/fish/conf.d", ".config/systemd/user"];
    for (const folder of folders) {
      mkdirSync(join(home, folder), { recursive: true });
      for (let i = 1; i <= LINKS; i++) symlinkSync(deep, join(home, folder, `l${i}`));
    }
    calls.readlink = 0;
    calls.opendir = 0;
    const got = await cli(root, join(root, "p"), ["render", "-o", join(root, "out.md")]);
    expect(got.code).toBe(0);
    // Each link followed costs some 45,000 names of the 100,000: a few are read, not 450.
    expect(calls.readlink).toBeLessThan(20);
    expect(calls.opendir).toBeLessThan(20);
    expect(got.stderr).toMatch(
      /warning: --output: \d+ link\(s\) in your home folder's configuration folders were not followed, and \d+ more folders were not looked at for links/,
    );
  });
});
