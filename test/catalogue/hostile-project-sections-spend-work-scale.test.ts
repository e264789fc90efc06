import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/index.js";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev54a F8 (medium). Sections share one prompt's render work (400,000
// helper calls, 24 MiB given to helpers, the 16 MiB read again), spent in
// prompt order: a trusted project's sections ordered first (`order: 1..9`,
// each `{{> big}}` twice of a 1 MB partial) spent it all, and every section
// after them was left out unrendered: your own section, your `--guideline`s,
// the base prompt, your AGENTS.md and skills, with `user-text-left-out` for
// the AGENTS.md and skills only, exit 0. Now every section that is not a
// project's renders first (its place in the prompt kept), the project's with
// what is left; one of yours left out for want of work, and your text under a
// project's version left out with it, is a `user-text-left-out` warning.

const USER_SECTION = "USER-SECTION-MARKER line one.";
const GUIDELINE = "GUIDE-MARKER never push to main";
const USER_AGENTS = "USER-AGENTS-MARKER: always answer in English.";

/** Ten nested loops over the four tools: 4^10 calls, stopped at a render's own 200,000. */
const LOOPS = `${"{{#each @root.tools}}".repeat(10)}x${"{{/each}}".repeat(10)}`;

/** Sections `zz1`…`zz3` of `layer` ("project" or "agent"), ordered before every other. */
function spenders(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const i of [1, 2, 3]) {
    files[`${dir}/sections/zz${i}.md`] = `---\norder: ${i}\ntag: false\n---\n${LOOPS}\n`;
  }
  return files;
}

async function render(files: Record<string, string>) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": `${USER_AGENTS}\n`,
    "agent/sections/usec.md": `---\norder: 50\ntag: usec\n---\n${USER_SECTION}\n`,
    ...files,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: true, promptGuidelines: [GUIDELINE] }));
}

const codes = (diagnostics: readonly Diagnostic[], code: string) =>
  diagnostics.filter((d) => d.code === code);

describe("hostile repository: a trusted project's sections cannot spend the work your texts need", () => {
  it("project sections ordered first: your section, guideline, base prompt and AGENTS.md still render", async () => {
    const result = await render(spenders("project/.pi"));
    for (const needle of [USER_SECTION, GUIDELINE, USER_AGENTS]) {
      expect(result.text, needle).toContain(needle);
    }
    const names = result.sections.map((s) => s.name);
    for (const name of ["preamble", "tools", "rules", "usec", "project_context", "cwd"]) {
      expect(names).toContain(name);
    }
    // The project's own sections pay: the last is named as left out for work.
    const work = codes(result.diagnostics, "prompt-render-work");
    expect(work).toHaveLength(1);
    expect(work[0]?.message).toMatch(/not rendered: zz3$/);
    expect(codes(result.diagnostics, "user-text-left-out")).toEqual([]);
  });

  it("a project's version over yours that prints it, left out for work, names your file", async () => {
    const result = await render({
      ...spenders("project/.pi"),
      "project/.pi/sections/usec.md": "{{> base}}\nPROJECT-ADDS\n",
    });
    expect(result.text).not.toContain(USER_SECTION);
    expect(result.text).toContain(GUIDELINE);
    const left = codes(result.diagnostics, "user-text-left-out");
    expect(left).toHaveLength(1);
    expect(left[0]?.message).toContain('your section "usec" (');
    expect(left[0]?.message).toContain("agent/sections/usec.md");
    expect(left[0]?.message).toContain("prompt-render-work");
    expect(left[0]?.path).toMatch(/project\/\.pi\/sections\/usec\.md$/);
  });

  it("your own sections left out for work (spent by sections of yours) are named, your guideline too", async () => {
    const result = await render(spenders("agent"));
    expect(result.text).not.toContain(USER_SECTION);
    const left = codes(result.diagnostics, "user-text-left-out");
    // The loops of yours stopped at their limits (said as before); the sections after them, for work.
    const own = left.find((d) => d.message.includes("not for want of room: the renders"));
    expect(own?.message).toContain('"usec" (');
    expect(own?.message).toContain('"rules" (with your --guideline texts)');
    // Your AGENTS.md, in the builtin section after them, is named as before.
    expect(left.some((d) => d.message.includes("agent/AGENTS.md"))).toBe(true);
  });
});
