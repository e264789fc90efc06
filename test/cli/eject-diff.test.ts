import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtinHash } from "../../src/sections/ejected-from.js";
import { BUILTIN, tempDir } from "../api/_helpers.js";
import { cli, usageHint } from "./_run.js";

const run = (root: string, ...args: string[]) =>
  cli(root, ["eject", "--agent-dir", join(root, "agent"), ...args], false);

const DATE_NOW = readFileSync(join(BUILTIN, "sections", "date.md"), "utf8");
const RULES_NOW = readFileSync(join(BUILTIN, "rules.md"), "utf8");
/** The builtin's three frontmatter lines as this version has them (each differs from DATE_THEN's). */
const NOW_KEYS = DATE_NOW.split("\n").slice(1, 4);
/** The builtin date section as an older version of the package had it. */
const DATE_THEN =
  "---\norder: 130\nvolatile: true\ndescription: Today's date (UTC).\n---\nToday's date: {{date}}\n";

/**
 * A project that ejected `date` from the older builtin and then edited it:
 * the copy records the old text's hash, and the old text is kept beside it.
 */
function driftedProject(): { root: string; copy: string } {
  const root = tempDir();
  const sections = join(root, "project", ".pi", "sections");
  const kept = join(root, "project", ".pi", ".sysprompt", "base");
  mkdirSync(sections, { recursive: true });
  mkdirSync(kept, { recursive: true });
  writeFileSync(join(kept, "date.md"), DATE_THEN);
  const copy = `---\norder: 130\nvolatile: true\ndescription: Today's date (UTC).\nejected-from: ${builtinHash(DATE_THEN)}\n---\nThe date today (UTC): {{date}}\n`;
  writeFileSync(join(sections, "date.md"), copy);
  return { root, copy };
}

describe("sysprompt eject --diff", () => {
  it("shows what the builtin changed and what the project changed, each from the builtin then; check reports the drift as info, --strict passes", async () => {
    const { root } = driftedProject();
    const then = builtinHash(DATE_THEN);
    const now = builtinHash(DATE_NOW);
    const shown = await run(root, "--diff", "date");
    expect(shown).toEqual({
      code: 0,
      stdout: [
        `date: the builtin changed since .pi/sections/date.md was copied from it (${then}, now ${now})`,
        "",
        `--- date.md\tbuiltin then (${then})`,
        `+++ date.md\tbuiltin now (${now})`,
        "@@ -1,6 +1,6 @@",
        " ---",
        "-order: 130",
        "-volatile: true",
        "-description: Today's date (UTC).",
        ...NOW_KEYS.map((line) => `+${line}`),
        " ---",
        " Today's date: {{date}}",
        "",
        `--- date.md\tbuiltin then (${then})`,
        "+++ date.md\tyour copy",
        "@@ -1,6 +1,7 @@",
        " ---",
        " order: 130",
        " volatile: true",
        " description: Today's date (UTC).",
        `+ejected-from: ${then}`,
        " ---",
        "-Today's date: {{date}}",
        "+The date today (UTC): {{date}}",
        "",
      ].join("\n"),
      stderr: "",
    });
    const check = await cli(root, ["check", "--agent-dir", join(root, "agent"), "--strict"], false);
    expect(check.code).toBe(0);
    expect(check.stdout.split("\n").filter((l) => l.includes("section-drift"))).toEqual([
      `info ${root}/project/.pi/sections/date.md:5 [section-drift] the builtin section "date" changed since this file was ejected from it (${then}, now ${now}); to see how: sysprompt eject --diff date`,
    ]);
  });

  it("after a fresh eject: nothing changed, the one diff is empty", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project"));
    expect((await run(root, "date")).code).toBe(0);
    expect(await run(root, "--diff", "date")).toEqual({
      code: 0,
      stdout: [
        `date: the builtin has not changed since .pi/sections/date.md was copied from it (${builtinHash(DATE_NOW)}); the builtin against the copy:`,
        "",
        `--- date.md\tbuiltin then (${builtinHash(DATE_NOW)})`,
        "+++ date.md\tyour copy",
        "@@ -1,6 +1,7 @@",
        " ---",
        ...NOW_KEYS.map((line) => ` ${line}`),
        `+ejected-from: ${builtinHash(DATE_NOW)}`,
        " ---",
        " Today's date: {{date}}",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("general-rules: the general rules' list that eject rules copied, against the builtin list", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project"));
    expect((await run(root, "rules")).code).toBe(0);
    const list = join(root, "project", ".pi", "general-rules.md");
    const copy = readFileSync(list, "utf8");
    writeFileSync(list, `${copy}- Answer in French.\n`);
    const hash = builtinHash(RULES_NOW);
    // Two hunks: the record comment atop the copy, and the rule added at its end.
    const builtin = RULES_NOW.trimEnd().split("\n");
    const n = builtin.length;
    expect(await run(root, "--diff", "general-rules")).toEqual({
      code: 0,
      stdout: [
        `general-rules: the builtin has not changed since .pi/general-rules.md was copied from it (${hash}); the builtin against the copy:`,
        "",
        `--- general-rules.md\tbuiltin then (${hash})`,
        "+++ general-rules.md\tyour copy",
        "@@ -1,4 +1,5 @@",
        `+${copy.split("\n")[0]}`,
        ...builtin.slice(0, 4).map((l) => ` ${l}`),
        `@@ -${n - 3},4 +${n - 2},5 @@`,
        ...builtin.slice(-4).map((l) => ` ${l}`),
        "+- Answer in French.",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("--json gives the three texts", async () => {
    const { root, copy } = driftedProject();
    const { code, stdout } = await run(root, "--diff", "date", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      name: "date",
      recorded: builtinHash(DATE_THEN),
      current: builtinHash(DATE_NOW),
      drifted: true,
      builtinThen: {
        path: join(root, "project", ".pi", ".sysprompt", "base", "date.md"),
        text: DATE_THEN,
      },
      builtinNow: { path: join(BUILTIN, "sections", "date.md"), text: DATE_NOW },
      override: { path: join(root, "project", ".pi", "sections", "date.md"), text: copy },
      diagnostics: [],
    });
  });

  it("bad usage is exit 2 with the reason: no name, two names, --all, a path for a name, no copy", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project"));
    const expectUsage = async (args: string[], message: string) =>
      expect(await run(root, ...args)).toEqual({
        code: 2,
        stdout: "",
        stderr: `sysprompt: ${message}\n${usageHint("eject", "[options] [names...]")}`,
      });
    await expectUsage(
      ["--diff"],
      "--diff takes exactly one section name: sysprompt eject --diff rules",
    );
    await expectUsage(
      ["--diff", "a", "b"],
      "--diff takes exactly one section name: sysprompt eject --diff rules",
    );
    await expectUsage(["--diff", "--all"], "--diff shows one section; it does not go with --all");
    await expectUsage(
      ["--diff", "../../etc/passwd"],
      '"../../etc/passwd" is not a section name (such as rules, or a variant such as rules@small; general-rules for the list eject rules copies)',
    );
    await expectUsage(
      ["--diff", "date"],
      `no override of "date" in the project layer (${root}/project/.pi/sections/date.md); copy it first with: sysprompt eject date`,
    );
    await expectUsage(
      ["--diff", "general-rules"],
      `no general rules of its own in the project layer (${root}/project/.pi/general-rules.md); eject rules copies them with the rules section: sysprompt eject rules`,
    );
  });
});
