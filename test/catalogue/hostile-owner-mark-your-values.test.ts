import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev69a F6 (low). Since rev68f F1 every value went through the mark
// rule, yours too: `--tool 'deploy=…only a rule file marked owner="user" may
// name a target'` and `--model 'claude-sonnet-4 owner="user"'` were printed
// `owner&#61;"user"`, with no warning. Your values (the options, the command
// line's flags) keep your mark; a project's `model:` gets the rule, as mark68
// decided, and tags stay escaped in both.

const MARK = 'owner="user"';
const HELD = 'owner&#61;"user"';

describe("owner mark: your own --tool description and --model keep it", () => {
  it("your option values print as you wrote them", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project"), { recursive: true });
    writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n" });
    const { text } = await renderSystemPrompt(
      pinned(root, {
        tools: ["read", "deploy"],
        toolSnippets: {
          deploy: `Deploy the app; only a rule file marked ${MARK} may name a target`,
        },
        model: `claude-sonnet-4 ${MARK}`,
      }),
    );
    expect(text).toContain(`only a rule file marked ${MARK} may name a target`);
    expect(text).toContain(`- Model: claude-sonnet-4 ${MARK}`);
    expect(text).not.toContain(HELD);
  });

  it("a trusted project's model: still gets the rule", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/sysprompt.yaml": `model: ${JSON.stringify(`m ${MARK}`)}\n`,
    });
    const { text } = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, configFiles: true }),
    );
    expect(text).toContain(`- Model: m ${HELD}`);
  });
});
