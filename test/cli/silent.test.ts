import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli, pinMachine } from "./_run.js";

pinMachine();

// Mistakes the CLI used to let pass with exit 0 and nothing said (issue 16).

/** Every builtin section, read from the package's prompts/sections (variants aside). */
const BUILTIN_SECTIONS = readdirSync(join(import.meta.dirname, "../../prompts/sections"))
  .filter((f) => f.endsWith(".md") && !f.includes("@"))
  .map((f) => f.slice(0, -3))
  .sort();

/** A temporary root with `files` (relative to it) written. */
function project(files: Record<string, string>): string {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Every builtin section switched off by the project. */
const allDisabled = () =>
  project(
    Object.fromEntries(
      BUILTIN_SECTIONS.map((n) => [`project/.pi/sections/${n}.md`, "---\nenabled: false\n---\n"]),
    ),
  );

const EMPTY =
  "the prompt is empty: every section is disabled, replaced or rendered empty; `sysprompt sections` shows the status of each";

describe("an empty prompt is an error", () => {
  it("render: an error on stderr, exit 1 under --strict", async () => {
    const root = allDisabled();
    const stderr = `error [prompt-empty] ${EMPTY}\n`;
    expect(await cli(root, ["render"])).toEqual({ code: 0, stdout: "", stderr });
    expect(await cli(root, ["render", "--strict"])).toEqual({ code: 1, stdout: "", stderr });
    const json = await cli(root, ["render", "--json", "--strict"]);
    expect([json.code, JSON.parse(json.stdout).diagnostics]).toEqual([
      1,
      [{ level: "error", code: "prompt-empty", message: EMPTY }],
    ]);
  });

  it("check: an error, naming the data it is empty with (all but a custom base prompt), so exit 1", async () => {
    const outcome = await cli(allDisabled(), ["check", "--strict"], false);
    expect([outcome.code, outcome.stdout.split("\n")[0]]).toEqual([
      1,
      `error [prompt-empty] ${EMPTY} (with 24 of the 48 data cases, the first: no tools, no skills, builtin base prompt, no tree, no context files)`,
    ]);
  });
});

describe("list reports folders that look meant to be read, as render does", () => {
  it(".pi/prompt/ and .pi/Skills/ in the project, prompt/ in the agent dir", async () => {
    const root = project({
      "project/.pi/prompt/review.md": "Review $1.\n",
      "project/.pi/Skills/beta/SKILL.md": "---\ndescription: Beta.\n---\n",
      "agent/prompt/fix.md": "Fix $1.\n",
    });
    const outcome = await cli(root, ["list", "--agent-dir", join(root, "agent")], false);
    expect(outcome).toEqual({
      code: 0,
      stdout: "Templates\n  (none)\n\nSkills\n  (none)\n",
      stderr: [
        `info ${root}/agent/prompt [ignored-file] ignored: slash-command templates live in prompts/`,
        `info ${root}/project/.pi/Skills [file-name-case] read as skills only where file names ignore case (macOS, Windows) and ignored elsewhere; rename it to skills`,
        `info ${root}/project/.pi/prompt [ignored-file] ignored: slash-command templates live in prompts/`,
        "",
      ].join("\n"),
    });
    // Not trusted: the project's .pi/ is not read, so nothing is said about it.
    const untrusted = await cli(
      root,
      ["list", "--agent-dir", join(root, "agent"), "--untrusted"],
      false,
    );
    expect(untrusted.stderr).toBe(
      `info ${root}/agent/prompt [ignored-file] ignored: slash-command templates live in prompts/\n`,
    );
  });
});

describe("tool names of other agents: builtin tools match in any case, spelled as given", () => {
  it("--tools Read,Bash,Edit: the builtin descriptions, the shell rule, the skills index, no tool-unknown", async () => {
    const root = project({
      "project/.pi/skills/alpha/SKILL.md": "---\ndescription: Alpha steps.\n---\nDo alpha.\n",
    });
    const tools = ["--tools", "Read,Bash,Edit,read"];
    expect(await cli(root, ["render", ...tools, "--section", "tools"])).toEqual({
      code: 0,
      stdout: [
        "<tools>",
        "Tools you can call:",
        "- Read: Read a file's contents; long files can be read in parts.",
        "- Bash: Run a shell command in the working directory and see its output.",
        "- Edit: Change a file by replacing an exact piece of its text.",
        "</tools>",
      ].join("\n"),
      stderr: "",
    });
    const rules = await cli(root, ["render", ...tools, "--section", "rules"]);
    expect([rules.code, rules.stdout.split("\n").slice(0, 3), rules.stderr]).toEqual([
      0,
      [
        "<rules>",
        "Rules:",
        "- Use the shell to explore the project (rg or grep to search, find and ls to list), since no dedicated search tools are selected.",
      ],
      "",
    ]);
    const skills = await cli(root, ["render", ...tools, "--section", "skills"]);
    expect([skills.code, skills.stdout.includes("with the read tool")]).toEqual([0, true]);
  });
});

describe("one place for an unknown helper: check and render agree", () => {
  it.each([
    ["a mustache", "  {{nohelper cwd}}", "4:3"],
    ["a block", "{{#nohelper cwd}}x{{/nohelper}}", "4:1"],
    ["a subexpression", '{{join (nohelper cwd) ","}}', "4:8"],
  ])("%s", async (_, body, place) => {
    const root = project({ "project/.pi/sections/team.md": `---\norder: 65\n---\n${body}\n` });
    const file = join(root, "project/.pi/sections/team.md");
    const check = await cli(root, ["check"], false);
    const render = await cli(root, ["render"]);
    expect([
      check.stdout
        .split("\n")
        .find((l) => l.includes("[unknown-helper]"))
        ?.split(" ")[1],
      render.stderr
        .split("\n")
        .find((l) => l.includes("Unknown helper"))
        ?.split(" ")[1],
    ]).toEqual([`${file}:${place}`, `${file}:${place}`]);
  });
});

const USAGE = "Usage: sysprompt expand [options] <text>; see `sysprompt expand --help`.";

describe("expand of a hostile command name", () => {
  it("a 10,000-character name or one with terminal escapes: one capped, escaped line, and the usage", async () => {
    const root = project({ "project/.pi/prompts/review.md": "Review $1.\n" });
    const argv = (text: string) => ["expand", "--agent-dir", join(root, "agent"), text];
    const long = await cli(root, argv(`/${"a".repeat(10_000)} x`), false);
    const [line, ...rest] = long.stderr.trimEnd().split("\n");
    expect([
      long.code,
      line?.startsWith('sysprompt: no prompt template or skill is called "aaa'),
      (line ?? "").length < 700,
      rest,
    ]).toEqual([2, true, true, [USAGE]]);
    const escaped = await cli(root, argv("/rev\u001b[2Jiew x"), false);
    expect(escaped.stderr).toBe(
      `sysprompt: no prompt template or skill is called "rev\\u001b[2Jiew"; \`sysprompt list\` shows the names there are\n${USAGE}\n`,
    );
  });
});
