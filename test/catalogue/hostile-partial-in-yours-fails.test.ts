import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Attack review rev91a F2: a trusted project's `.pi/partials/policy.md` replaces your partial
// (pi's rule, warned) and FAILS while it renders inside your section or your SYSTEM_TEMPLATE.md:
// a missing partial (`{{> missing_one}}`), an unclosed `{{#if x}}`, an unknown helper, a chain of
// partials past the depth limit. The throw reached your template's render, and your whole section
// was left out ("the section is left out"), or your base prompt ("the builtin base prompt is used
// instead"). Now that print alone is left out, with a warning naming the project's file, line and
// cause; your template around it is kept, later prints of that name are left out unrun, and a
// project's partial failing in the project's own section still takes out that section. The call
// cap: hostile-partial-in-yours-fails-cap-scale.test.ts.

const SECTION =
  "---\norder: 5\n---\n<my_policy>\nUSER-SECTION-MARKER keep this.\n{{> policy}}\nUSER-SECTION-TAIL keep this too.\n{{#if true}}USER-AFTER-HELPER{{/if}}\n</my_policy>\n";

/** Your AGENTS.md, your section printing `{{> policy}}` and your partial it prints, with `extra`. */
function project(files: Record<string, string>, extra: Record<string, string> = {}): string {
  const root = tempDir();
  writeFiles(root, {
    "home/.pi/agent/AGENTS.md": "USER-AGENTS-MARKER: answer briefly.\n",
    "home/.pi/agent/sections/mine.md": SECTION,
    "home/.pi/agent/partials/policy.md": "USER-PARTIAL-MARKER my policy.\n",
    "project/.git/HEAD": "ref: refs/heads/main\n",
    ...extra,
    ...files,
  });
  return root;
}

function options(root: string) {
  return {
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "home/.pi/agent"),
    deadlineMs: 600_000,
  };
}

type Rendered = Awaited<ReturnType<typeof renderSystemPrompt>>;

/** The warning naming the project's partial `name`, its one place; and no error of a template of yours. */
function failedPrint(r: Rendered, name = "policy") {
  const said = r.diagnostics.filter(
    (d) => d.code === "template" && d.path === `.pi/partials/${name}.md`,
  );
  expect(said).toHaveLength(1);
  expect(said[0]?.level).toBe("warning");
  expect(said[0]?.message).toContain("your template around it is kept");
  expect(r.diagnostics.filter((d) => d.level === "error")).toEqual([]);
  return said[0];
}

describe("hostile repository: its partial fails inside a template of yours", () => {
  it.each([
    [
      "a missing partial",
      "Project policy. {{> missing_one}}",
      'Partial "missing_one" not found',
      17,
    ],
    ["an unclosed block", "Project {{#if x}} policy", 'Block "if" is never closed', 9],
    ["an unknown helper", "P {{nosuchhelper 1 2}}", 'Unknown helper "nosuchhelper"', 3],
  ])(
    "f6.sh, %s: your section is kept around the print, said at the project's file and line",
    async (_, body, cause, column) => {
      const root = project({ "project/.pi/partials/policy.md": body });
      const r = await renderSystemPrompt(options(root));
      const said = failedPrint(r);
      expect(said?.message).toContain(cause);
      expect(said?.line).toBe(1);
      expect(said?.column).toBe(column);
      expect(r.text).toContain(
        "<my_policy>\nUSER-SECTION-MARKER keep this.\nUSER-SECTION-TAIL keep this too.\nUSER-AFTER-HELPER\n</my_policy>",
      );
      expect(r.text).toContain("USER-AGENTS-MARKER");
      expect(r.text).not.toContain("Project policy");
    },
  );

  it("f5.sh: a chain of 21 partials past the depth limit: your section is kept", async () => {
    const files: Record<string, string> = {
      "project/.pi/partials/policy.md": "Project policy.\n{{> l1}}\n",
      "project/.pi/partials/l21.md": "x",
    };
    for (let i = 1; i <= 20; i++) files[`project/.pi/partials/l${i}.md`] = `{{> l${i + 1}}}`;
    const r = await renderSystemPrompt(options(project(files)));
    expect(failedPrint(r)?.message).toContain("Partials nested more than 16 deep");
    for (const m of ["USER-SECTION-MARKER", "USER-SECTION-TAIL", "USER-AFTER-HELPER"])
      expect(r.text).toContain(m);
  });

  it("your SYSTEM_TEMPLATE.md printing the failing partial is kept, not the builtin base prompt", async () => {
    const root = project(
      { "project/.pi/partials/policy.md": "Project policy. {{> missing_one}}" },
      {
        "home/.pi/agent/SYSTEM_TEMPLATE.md":
          "USER-SYSTEM-TEMPLATE-MARKER You are my agent.\n{{> policy}}\nUSER-SYSTEM-TAIL-MARKER\n",
      },
    );
    const r = await renderSystemPrompt(options(root));
    // Printed by your section and by your SYSTEM_TEMPLATE.md: one warning, the second print left out unrun.
    failedPrint(r);
    for (const m of [
      "USER-SYSTEM-TEMPLATE-MARKER",
      "USER-SYSTEM-TAIL-MARKER",
      "USER-SECTION-MARKER",
      "USER-SECTION-TAIL",
    ])
      expect(r.text).toContain(m);
  });

  it("a project's partial failing in the project's own section still takes out that section alone", async () => {
    const root = project({
      "project/.pi/partials/policy.md": "Project policy. {{> missing_one}}",
      "project/.pi/sections/proj.md": "---\norder: 7\n---\nPROJECT-SECTION-MARKER\n{{> policy}}\n",
    });
    const r = await renderSystemPrompt(options(root));
    expect(r.text).not.toContain("PROJECT-SECTION-MARKER");
    const error = r.diagnostics.find((d) => d.level === "error" && d.code === "template");
    expect(error?.path).toContain("proj.md");
    expect(error?.message).toContain("the section is left out");
    for (const m of ["USER-SECTION-MARKER", "USER-SECTION-TAIL", "USER-AFTER-HELPER"])
      expect(r.text).toContain(m);
  });
});
