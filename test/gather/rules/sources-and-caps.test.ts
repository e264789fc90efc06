import { mkdirSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  MAX_RULE_FILES_PER_FOLDER,
  MAX_RULE_FOLDER_ENTRIES,
  MAX_RULE_SUBFOLDERS,
} from "../../../src/gather/rules/discover.js";
import { rulesFixture, trace } from "./_helpers.js";

describe("user-level rule folders of other agents", () => {
  it("are not read by default", async () => {
    const dir = rulesFixture("user-level-sources", "project");
    const out = await trace(dir, "project");
    expect(out.accounts.map((a) => a.path)).toEqual([`${dir}/project/.claude/rules/style.md`]);
  });

  it("are read when ruleSources names them; the project's rule of the same format and name wins", async () => {
    const dir = rulesFixture("user-level-sources", "project");
    const out = await trace(dir, "project", { sources: ["claude", "user:claude", "user:kiro"] });
    expect(out.accounts.map((a) => [a.path.slice(dir.length + 1), a.layer, a.fate])).toEqual([
      ["home/.claude/rules/mine.md", "user", { status: "inlined" }],
      [
        "home/.claude/rules/style.md",
        "user",
        { status: "shadowed", by: `${dir}/project/.claude/rules/style.md` },
      ],
      ["project/.claude/rules/style.md", "project", { status: "inlined" }],
      ["home/.kiro/steering/k.md", "user", { status: "manual" }],
    ]);
    expect(out.rules.map((r) => r.content)).toEqual([
      "User-only Claude rule.",
      "Project style wins.",
      "Kiro user rule.",
    ]);
    expect(out.diagnostics).toEqual([
      {
        level: "warning",
        code: "user-text-left-out",
        message: `your rule is left out: the project's ${dir}/project/.claude/rules/style.md of the same name takes its place (a trusted project's rule of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back`,
        path: `${dir}/home/.claude/rules/style.md`,
      },
    ]);
  });
});

describe("caps", () => {
  it("files past the total byte budget are named, not read, in prompt order", async () => {
    const dir = rulesFixture("every-format", "project");
    const out = await trace(dir, "project/sub", {
      sources: ["zed", "gemini", "roo"],
      maxTotalBytes: 64,
    });
    // Files their agent does not use are not read, so they take none of the budget.
    expect(out.accounts.map((a) => [a.path.slice(dir.length + 1), a.fate.status])).toEqual([
      ["project/.gemini/GEMINI.md", "disabled"],
      ["project/GEMINI.md", "inlined"],
      ["project/.clinerules-debug", "disabled"],
      ["project/.roo/rules-code/tests.md", "disabled"],
      ["project/.roo/rules/deps.md", "over-cap"],
      // Roo reads it only in place of .roo/rules, which holds a file.
      ["project/.roorules", "disabled"],
      ["project/.roorules-architect", "disabled"],
      ["project/AGENTS.local.md", "over-cap"],
      ["project/.rules", "over-cap"],
    ]);
    expect(
      out.diagnostics.filter((d) => d.code !== "rule-disabled").map((d) => [d.code, d.message]),
    ).toEqual(
      Array(3).fill([
        "rule-over-cap",
        "rule file not read: the rule files read so far reach the 64-byte total",
      ]),
    );
  });

  it("a project folder too large to list for Roo's mode files costs no warning (those files are never used)", async () => {
    const dir = rulesFixture("drifted-formats");
    for (let i = 0; i <= MAX_RULE_FOLDER_ENTRIES; i++) writeFileSync(`${dir}/f${i}.txt`, "");
    const out = await trace(dir, ".", { sources: ["roo"] });
    expect(out.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
    expect(out.accounts.map((a) => a.path.slice(dir.length + 1))).toEqual([
      ".roo/rules-code/tests.md",
      ".roo/rules/general.md",
      ".roorules",
      "AGENTS.local.md",
    ]);
  }, 30_000);

  it(`a rules folder gives at most ${MAX_RULE_FILES_PER_FOLDER} files; each one past it is named`, async () => {
    const dir = rulesFixture("crlf-bom");
    const n = MAX_RULE_FILES_PER_FOLDER + 3;
    for (let i = 0; i < n; i++) {
      writeFileSync(`${dir}/.cursor/rules/r${String(i).padStart(3, "0")}.md`, `Rule ${i}.\n`);
    }
    const out = await trace(dir, ".", { maxTotalBytes: 10_000_000 });
    const over = out.accounts.filter((a) => a.fate.status === "over-cap");
    // Sorted by path: the four last of the 204 names are the ones left out.
    expect(over.map((a) => a.path.slice(dir.length + 1))).toEqual([
      ".cursor/rules/r200.md",
      ".cursor/rules/r201.md",
      ".cursor/rules/r202.md",
      ".cursor/rules/rust.mdc",
    ]);
    expect(out.accounts).toHaveLength(n + 1);
  });
});

describe("a rules folder with too many subfolders", () => {
  it(`lists at most ${MAX_RULE_SUBFOLDERS} of them, in name order, and names the first one left out`, async () => {
    const dir = rulesFixture("crlf-bom");
    for (let i = 0; i < MAX_RULE_SUBFOLDERS + 5; i++) {
      const sub = `${dir}/.cursor/rules/d${String(i).padStart(3, "0")}`;
      mkdirSync(sub);
      writeFileSync(`${sub}/r.md`, `Rule ${i}.\n`);
    }
    const out = await trace(dir, ".", { maxTotalBytes: 10_000_000 });
    const over = out.accounts.filter((a) => a.fate.status === "over-cap");
    expect(over.map((a) => [a.path.slice(dir.length + 1), a.fate])).toEqual([
      [
        `.cursor/rules/d${MAX_RULE_SUBFOLDERS}`,
        {
          status: "over-cap",
          reason: `more than ${MAX_RULE_SUBFOLDERS} subfolders in one rules folder: this one and those after it not searched`,
        },
      ],
    ]);
    expect(out.rules).toHaveLength(MAX_RULE_SUBFOLDERS + 1);
  });
});

describe("the ruleSources option", () => {
  it("is checked before anything is read: an unknown name or a string is the caller's error", async () => {
    const { renderSystemPrompt } = await import("../../../src/render-system-prompt.js");
    await expect(renderSystemPrompt({ ruleSources: ["cursor", "user:cursor"] })).rejects.toThrow(
      'ruleSources: has the unknown rule source "user:cursor"; the sources are: sysprompt, cursor, windsurf, cline, copilot, claude, gemini, kiro, roo, continue, zed, user:windsurf, user:copilot, user:claude, user:kiro, user:roo',
    );
    await expect(
      renderSystemPrompt({ ruleSources: "cursor" as unknown as string[] }),
    ).rejects.toThrow('ruleSources: must be an array of strings (split a list first: ["cursor"])');
  });
});
