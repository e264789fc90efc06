import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtinHash, withEjectedFrom } from "../../src/sections/ejected-from.js";
import type { RenderResult } from "../../src/types.js";
import { BUILTIN, copyScenario, tempDir } from "../api/_helpers.js";
import { cli, pinMachine, usageHint } from "./_run.js";

pinMachine();

const KNOWN =
  "addendum, cwd, date, dir_context, docs, environment, git, preamble, project_context, project_rules, rules, skills, tools, workspace_roots, workspace_tree";

/** `sysprompt eject` in `<root>/project` with `<root>/agent` as the user layer. */
const eject = (root: string, ...args: string[]) =>
  cli(root, ["eject", "--agent-dir", join(root, "agent"), ...args], false);

const builtin = (name: string) => readFileSync(join(BUILTIN, "sections", `${name}.md`), "utf8");
/** What eject writes: the builtin with its `ejected-from` record (its format is pinned in test/author/drift.test.ts). */
const ejected = (name: string) => withEjectedFrom(builtin(name), builtinHash(builtin(name)));
const projectSections = (root: string) => join(root, "project", ".pi", "sections");
const keptBase = (root: string) => join(root, "project", ".pi", ".sysprompt", "base");
/** How eject names a per-model variant it copied along with its section. */
const VARIANT = (path: string, of: string) =>
  `wrote ${path} (a per-model variant of ${of}, copied with it: a copy of ${of} alone would serve every model)\n`;
/** How eject names the general rules' list it copied along with the rules section. */
const GENERAL_LINE = (path: string) =>
  `wrote ${path} (the general rules the rules section lists, one "- " line each: edit, remove or add one; this file replaces the builtin list, and rules@small.md words them its own way for small models)\n`;
const TOOLS_NOTE =
  "note: the tools section lists each tool's one-line description, which is data: re-describe a tool with --tool name=text (toolSnippets), or in a layer folder with a tools: map in agents/pi.yaml (agents/<agent>.yaml under --agent), which also sets the default tool selection\n";
const KEPT_LINE = (dir: string, n: number) =>
  `kept the builtin ${n === 1 ? "text" : "texts"} in ${dir}/ (commit ${n === 1 ? "it" : "them"} with the ${n === 1 ? "copy" : "copies"}; \`sysprompt check\` then says when a builtin changes, \`sysprompt eject --diff NAME\` shows how)\n`;

/** An empty project folder. */
function emptyProject(): string {
  const root = tempDir();
  mkdirSync(join(root, "project"));
  return root;
}

describe("sysprompt eject", () => {
  it("copies the named builtin sections into .pi/sections with their ejected-from record, keeps the builtin texts, and says so", async () => {
    const root = emptyProject();
    expect(await eject(root, "rules", "tools")).toEqual({
      code: 0,
      stdout: `wrote .pi/sections/rules.md\n${VARIANT(".pi/sections/rules@small.md", "rules")}wrote .pi/sections/tools.md\n${GENERAL_LINE(".pi/general-rules.md")}${KEPT_LINE(".pi/.sysprompt/base", 3)}${TOOLS_NOTE}`,
      stderr: "",
    });
    expect(readdirSync(projectSections(root))).toEqual(["rules.md", "rules@small.md", "tools.md"]);
    // The general rules are copied as they are, under a comment that records the builtin list.
    const list = readFileSync(join(BUILTIN, "rules.md"), "utf8");
    expect(readFileSync(join(root, "project/.pi/general-rules.md"), "utf8")).toBe(
      `# ejected-from: ${builtinHash(list)} (the builtin list this copy started from; sysprompt check says when it changes)\n${list}`,
    );
    expect(readFileSync(join(keptBase(root), "general-rules.md"), "utf8")).toBe(list);
    for (const name of ["rules", "rules@small", "tools"]) {
      expect(readFileSync(join(projectSections(root), `${name}.md`), "utf8")).toBe(ejected(name));
      expect(readFileSync(join(keptBase(root), `${name}.md`), "utf8")).toBe(builtin(name));
    }
  });

  it("never overwrites without --force, and then writes nothing at all (a variant alone would change the prompt), exit 1", async () => {
    const root = emptyProject();
    mkdirSync(projectSections(root), { recursive: true });
    const mine = join(projectSections(root), "rules.md");
    writeFileSync(mine, "---\n---\nMy rules.\n");
    expect(await eject(root, "rules", "tools")).toEqual({
      code: 1,
      stdout: "exists .pi/sections/rules.md (left alone; --force replaces it)\n",
      stderr:
        "sysprompt: nothing was written: a section and its variants are copied together or not at all; pass --force to replace the file above, or leave its section out\n",
    });
    expect(readFileSync(mine, "utf8")).toBe("---\n---\nMy rules.\n");
    expect(readdirSync(projectSections(root))).toEqual(["rules.md"]);
  });

  it("--force never writes through a planted link: refused at the link, nothing written anywhere", async () => {
    const root = emptyProject();
    mkdirSync(join(root, "home"));
    const notes = join(root, "home", "notes.txt");
    writeFileSync(notes, "my notes\n");
    mkdirSync(projectSections(root), { recursive: true });
    symlinkSync(notes, join(projectSections(root), "rules.md"));
    expect(await eject(root, "rules", "tools", "--force")).toEqual({
      code: 1,
      stdout: "",
      stderr: `error ${projectSections(root)}/rules.md [unsafe-target] a symbolic link, not a regular file: it is not written through\nsysprompt: nothing was written: fix the files above first (a project's files are written only as regular files in real folders, never through a link)\n`,
    });
    expect(readFileSync(notes, "utf8")).toBe("my notes\n");
    expect(readdirSync(projectSections(root))).toEqual(["rules.md"]);
  });

  it("a .pi that is a link to elsewhere, or a file, is refused without a stack trace; nothing is written", async () => {
    const root = emptyProject();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(root, "project", ".pi"));
    expect(await eject(root, "date")).toEqual({
      code: 1,
      stdout: "",
      stderr: `error ${root}/project/.pi [unsafe-target] a symbolic link, not a folder: nothing is written through it\nsysprompt: nothing was written: fix the files above first (a project's files are written only as regular files in real folders, never through a link)\n`,
    });
    expect(readdirSync(elsewhere)).toEqual([]);

    const other = emptyProject();
    writeFileSync(join(other, "project", ".pi"), "a file\n");
    expect(await eject(other, "date")).toEqual({
      code: 1,
      stdout: "",
      stderr: `error ${other}/project/.pi [unsafe-target] a regular file, not a folder: nothing is written through it\nsysprompt: nothing was written: fix the files above first (a project's files are written only as regular files in real folders, never through a link)\n`,
    });
    expect(readFileSync(join(other, "project", ".pi"), "utf8")).toBe("a file\n");
  });

  it("--force replaces an existing file", async () => {
    const root = emptyProject();
    mkdirSync(projectSections(root), { recursive: true });
    const mine = join(projectSections(root), "rules.md");
    writeFileSync(mine, "My rules.\n");
    expect(await eject(root, "rules", "--force")).toEqual({
      code: 0,
      stdout: `wrote .pi/sections/rules.md\n${VARIANT(".pi/sections/rules@small.md", "rules")}${GENERAL_LINE(".pi/general-rules.md")}${KEPT_LINE(".pi/.sysprompt/base", 2)}`,
      stderr: "",
    });
    expect(readFileSync(mine, "utf8")).toBe(ejected("rules"));
  });

  it("an unknown name is exit 2, lists the builtin sections and writes nothing", async () => {
    const root = emptyProject();
    expect(await eject(root, "rules", "rulez")).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: no builtin section "rulez"; the builtin sections are: ${KNOWN}\n${usageHint("eject", "[options] [names...]")}`,
    });
    expect(existsSync(join(root, "project", ".pi"))).toBe(false);
  });

  it("no names and no --all, or both, are bad usage (exit 2)", async () => {
    const root = emptyProject();
    expect(await eject(root)).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: name the sections to copy, or pass --all; the builtin sections are: ${KNOWN}\n${usageHint("eject", "[options] [names...]")}`,
    });
    expect(await eject(root, "rules", "--all")).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: give section names or --all, not both; the builtin sections are: ${KNOWN}\n${usageHint("eject", "[options] [names...]")}`,
    });
    expect(existsSync(join(root, "project", ".pi"))).toBe(false);
  });

  it("a --cwd that is not a folder is bad usage (exit 2) and creates nothing", async () => {
    const root = emptyProject();
    expect(await eject(root, "rules", "--cwd", "../nowhere")).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: cwd: there is no folder at ${root}/nowhere; pass the project's folder\n${usageHint("eject", "[options] [names...]")}`,
    });
    expect(existsSync(join(root, "nowhere"))).toBe(false);
  });

  it("--user copies into the agent dir's sections (shown in full, being outside the project)", async () => {
    const root = emptyProject();
    expect(await eject(root, "date", "--user")).toEqual({
      code: 0,
      stdout: `wrote ${root}/agent/sections/date.md\n${KEPT_LINE(`${root}/agent/.sysprompt/base`, 1)}`,
      stderr: "",
    });
    expect(readFileSync(join(root, "agent", "sections", "date.md"), "utf8")).toBe(ejected("date"));
    expect(readFileSync(join(root, "agent", ".sysprompt", "base", "date.md"), "utf8")).toBe(
      builtin("date"),
    );
    expect(existsSync(join(root, "project", ".pi"))).toBe(false);
  });

  it("after eject --all the rendered prompt is byte-identical, now served by the project's copies", async () => {
    const root = copyScenario("eject", "render-unchanged");
    const flags = ["--model", "m-1", "--append-system-prompt", "Be kind.", "--guideline", "Ask."];
    const before = await cli(root, ["render", ...flags]);
    const ejected = await eject(root, "--all");
    const after = await cli(root, ["render", ...flags]);
    expect(ejected.code).toBe(0);
    expect(ejected.stdout).toBe(
      [...KNOWN.split(", "), "rules@small"]
        .sort()
        .map((name) =>
          name.includes("@")
            ? VARIANT(`.pi/sections/${name}.md`, name.split("@")[0] ?? "")
            : `wrote .pi/sections/${name}.md\n`,
        )
        .join("") +
        GENERAL_LINE(".pi/general-rules.md") +
        KEPT_LINE(".pi/.sysprompt/base", 16) +
        TOOLS_NOTE,
    );
    expect(after).toEqual(before);
    expect(before.stdout).toContain("<skills>");
    const json = JSON.parse(
      (await cli(root, ["render", "--json", ...flags])).stdout,
    ) as RenderResult;
    expect(json.sections.map((s) => [s.name, s.source.layer])).toEqual(
      [
        "preamble",
        "tools",
        "rules",
        "addendum",
        "project_context",
        "skills",
        "cwd",
        "environment",
        "date",
      ].map((name) => [name, "project"]),
    );
  });

  it("a section's variants go with it, so the prompt of a model they serve is unchanged too", async () => {
    const root = copyScenario("eject", "render-unchanged");
    const flags = ["render", "--model", "gpt-4o-mini"];
    const before = await cli(root, flags);
    expect((await eject(root, "rules")).code).toBe(0);
    expect(await cli(root, flags)).toEqual(before);
    expect(before.stdout).toContain("Rules. Follow each one exactly:");
  });

  it("warns when the project's copy hides a user override of the same section", async () => {
    const root = copyScenario("cli", "project-with-layers");
    expect(await eject(root, "cwd")).toEqual({
      code: 0,
      stdout: `wrote .pi/sections/cwd.md\n${KEPT_LINE(".pi/.sysprompt/base", 1)}`,
      stderr: `warning ${root}/project/.pi/sections/cwd.md [eject-hides-user] the user layer overrides "cwd" (${root}/agent/sections/cwd.md); the project's copy of the builtin now wins over it\n`,
    });
  });

  it("no such warning when the project already had its own copy (nothing changed)", async () => {
    const root = copyScenario("cli", "project-with-layers");
    mkdirSync(projectSections(root), { recursive: true });
    writeFileSync(join(projectSections(root), "cwd.md"), "Mine.\n");
    expect(await eject(root, "cwd")).toEqual({
      code: 1,
      stdout: "exists .pi/sections/cwd.md (left alone; --force replaces it)\n",
      stderr:
        "sysprompt: nothing was written: a section and its variants are copied together or not at all; pass --force to replace the file above, or leave its section out\n",
    });
  });

  it("--json prints the folder, what was written (nothing, when a file exists) and what was left alone", async () => {
    const root = emptyProject();
    mkdirSync(projectSections(root), { recursive: true });
    writeFileSync(join(projectSections(root), "date.md"), "Mine.\n");
    const { code, stdout, stderr } = await eject(root, "cwd", "date", "--json");
    const entry = (name: string) => ({
      name,
      from: join(BUILTIN, "sections", `${name}.md`),
      path: join(projectSections(root), `${name}.md`),
      hash: builtinHash(builtin(name)),
      base: join(keptBase(root), `${name}.md`),
    });
    expect([code, stderr]).toEqual([1, ""]);
    expect(JSON.parse(stdout)).toEqual({
      dir: projectSections(root),
      written: [],
      skipped: [entry("date")],
      diagnostics: [],
    });
  });

  it("--help shows an example", async () => {
    const root = emptyProject();
    const { code, stdout } = await cli(root, ["eject", "--help"], false);
    expect(code).toBe(0);
    expect(stdout.slice(stdout.indexOf("Example:"))).toBe(
      "Example:\n  $ sysprompt eject rules tools    # then edit .pi/sections/rules.md\n",
    );
  });
});
