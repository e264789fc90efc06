import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Attack review rev91a F2, the call cap (f4.sh, f4b.sh): ten tiny files of a trusted project,
// `.pi/partials/policy.md` over yours calling `l1` four times, `l1` calling `l2` four times, ...
// to `l9` (4^9 calls), passed the render's 200,000-call cap inside your section (or your
// SYSTEM_TEMPLATE.md), and your whole section (or base prompt) was left out. Now that print alone
// is left out, said at the project's file; your template around it goes on (its own helper after
// the print too); and what the failed print spent is held against every later print of the
// project's partials in your templates: the next one (`note`, some 1,400 calls) gets no fresh
// 200,000 and is left out as well, so the cap still bounds what the project's prints spend.

/** The project's partials: `policy` calls the 4^9 tree; `note` a 4^4 one, well under the cap alone. */
function tree(): Record<string, string> {
  const files: Record<string, string> = {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/.pi/partials/policy.md": "Project policy.\n{{> l1}}{{> l1}}{{> l1}}{{> l1}}\n",
    "project/.pi/partials/note.md": "PROJECT-NOTE-TEXT\n{{> l5}}\n",
    "project/.pi/partials/l9.md": "x",
  };
  for (let i = 1; i <= 8; i++) files[`project/.pi/partials/l${i}.md`] = `{{> l${i + 1}}}`.repeat(4);
  return files;
}

function render(yours: Record<string, string>) {
  const root = tempDir();
  writeFiles(root, {
    "home/.pi/agent/AGENTS.md": "USER-AGENTS-MARKER: answer briefly.\n",
    "home/.pi/agent/partials/policy.md": "USER-PARTIAL-MARKER my policy.\n",
    ...yours,
    ...tree(),
  });
  return renderSystemPrompt({
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "home/.pi/agent"),
    deadlineMs: 600_000,
  });
}

type Rendered = Awaited<ReturnType<typeof renderSystemPrompt>>;

function capWarning(r: Rendered, name: string) {
  const said = r.diagnostics.filter(
    (d) => d.code === "template" && d.path === `.pi/partials/${name}.md`,
  );
  expect(said).toHaveLength(1);
  expect(said[0]?.level).toBe("warning");
  expect(said[0]?.message).toContain("Render stopped after 200000 helper calls");
  expect(said[0]?.message).toContain("your template around it is kept");
}

describe("hostile repository: its partial passes the call cap inside a template of yours", () => {
  it("f4.sh: your section is kept around the print; the next project partial gets no fresh cap", async () => {
    const r = await render({
      "home/.pi/agent/sections/mine.md":
        "---\norder: 5\n---\n<my_policy>\nUSER-SECTION-MARKER keep this.\n{{> policy}}\nUSER-SECTION-TAIL keep this too.\n{{#if true}}USER-AFTER-HELPER{{/if}}\n</my_policy>\n",
      "home/.pi/agent/sections/mine2.md":
        "---\norder: 6\n---\n<my_notes>\nUSER-NOTES-MARKER {{#if true}}yes{{/if}}\n{{> note}}\nUSER-NOTES-TAIL\n</my_notes>\n",
    });
    capWarning(r, "policy");
    capWarning(r, "note");
    expect(r.diagnostics.filter((d) => d.level === "error")).toEqual([]);
    expect(r.text).toContain(
      "<my_policy>\nUSER-SECTION-MARKER keep this.\nUSER-SECTION-TAIL keep this too.\nUSER-AFTER-HELPER",
    );
    expect(r.text).toContain("<my_notes>\nUSER-NOTES-MARKER yes\nUSER-NOTES-TAIL\n</my_notes>");
    expect(r.text).not.toContain("PROJECT-NOTE-TEXT");
    expect(r.text).not.toContain("Project policy");
    expect(r.text).toContain("USER-AGENTS-MARKER");
  }, 120_000);

  it("f4b.sh: your SYSTEM_TEMPLATE.md is kept, not replaced by the builtin base prompt", async () => {
    const r = await render({
      "home/.pi/agent/SYSTEM_TEMPLATE.md":
        "USER-SYSTEM-TEMPLATE-MARKER You are my agent.\n{{> policy}}\nUSER-SYSTEM-TAIL-MARKER\n",
    });
    capWarning(r, "policy");
    expect(r.diagnostics.filter((d) => d.level === "error")).toEqual([]);
    expect(r.text).toContain(
      "USER-SYSTEM-TEMPLATE-MARKER You are my agent.\nUSER-SYSTEM-TAIL-MARKER",
    );
  }, 120_000);
});
