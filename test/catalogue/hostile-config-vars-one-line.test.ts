import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { swallowed } from "./_commonmark.js";

// Review rev42b (F1, medium): a trusted project's ONE-line `vars:` value was
// written as a name is, with tags and `<!--` escaped only. Printed on a line
// of its own by your section (`Team notes:\n\n{{vars.notes}}`), a value such
// as "````", "~~~~", "<pre>", "<script>", "<?x" or "<![CDATA[" opened a code
// block or an HTML block that ran over the rest of the prompt: your always
// rule, the tools, the working directory. A name the repository chose (a
// project's `tools:` name, a folder in the AGENTS.md list) had the same hole
// wherever a template put it at a line's start. Now no one-line value or
// name opens a block.

const OPENERS = [
  "````",
  "~~~~",
  "   ```x",
  "<pre>",
  "<script>",
  "<style>",
  "<textarea>",
  "<?x",
  "<![CDATA[",
  "<!X",
  "<!-- x",
  "<div>",
];

const NEEDLES = ["USER-ALWAYS-RULE", "USER-AFTER", "Current working directory"];

function world(section: string, project: string) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/.pi/sysprompt.yaml": project,
    "agent/sections/usec.md": `---\norder: 5\n---\n${section}\n\nUSER-AFTER: keep going.\n`,
    "agent/sysprompt.yaml": 'vars:\n  notes: "be kind"\n  more: "x"\n',
    "agent/rules/always.md": "---\nalwaysApply: true\n---\nUSER-ALWAYS-RULE: never push to main.\n",
  });
  return root;
}

async function render(section: string, project: string, files: Record<string, string> = {}) {
  const root = world(section, project);
  writeFiles(root, files);
  const options = pinned(root, { projectTrusted: true, configFiles: true, workspaceTree: true });
  return (await renderSystemPrompt(options)).text;
}

describe("hostile repository: a project's one-line value or name opens no block", () => {
  it.each(OPENERS)(
    "a project's var %j on a line of its own leaves the prompt after it as it is",
    async (value) => {
      const text = await render(
        "Team notes:\n\n{{vars.notes}}",
        `vars:\n  notes: ${JSON.stringify(value)}\n`,
      );
      for (const needle of NEEDLES)
        expect(swallowed(text, needle), `${value} / ${needle}`).toBe(false);
    },
  );

  it("two project values side by side make no fence either", async () => {
    const text = await render(
      "Team notes:\n\n{{vars.notes}}{{vars.more}}",
      'vars:\n  notes: "``"\n  more: "`"\n',
    );
    for (const needle of NEEDLES) expect(swallowed(text, needle), needle).toBe(false);
  });

  it.each(["```", "<pre>", "<script>"])(
    "a project's tools: name %j at a line's start opens no block",
    async (name) => {
      const text = await render(
        'Tools:\n\n{{#list tools prefix=""}}{{this}}{{/list}}',
        `tools: [${JSON.stringify(name)}, "read"]\n`,
      );
      for (const needle of NEEDLES)
        expect(swallowed(text, needle), `${name} / ${needle}`).toBe(false);
    },
  );

  it.each(["<pre>", "```"])(
    "a folder named %j in the AGENTS.md list at a line's start opens no block",
    async (folder) => {
      const text = await render(
        'Deeper files:\n\n{{#list agentsMd prefix=""}}{{this}}{{/list}}',
        "vars: {}\n",
        {
          [`project/${folder}/AGENTS.md`]: "# deeper\n",
        },
      );
      expect(text).toContain("/AGENTS.md\n");
      for (const needle of NEEDLES)
        expect(swallowed(text, needle), `${folder} / ${needle}`).toBe(false);
    },
  );
});
