import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { piRenderOptions } from "../../src/integrations/pi/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { piPromptOptions } from "../integrations/pi/_fake-pi.js";

// Review rev55a F3 (medium): rev52b F9's rule (a trusted project's SYSTEM.md
// keeps your guidelines and warns about your base sections it replaces) held
// only when sysprompt read the file itself. Under pi, pi reads the project's
// .pi/SYSTEM.md and hands its text over (`resolvedSystemPrompt`): your
// promptGuidelines, toolGuidelines and `base: true` rules.md override were gone
// with no diagnostic at all; and the CLI's `--system-prompt ./docs/base.md` (a
// project file) dropped your --guideline silently. Every custom base prompt
// that may be the repository's now keeps your guidelines (prompt and tool) as a
// part of your addendum and says which of your base sections it replaced.

const RULES = "---\norder: 30\nbase: true\n---\nMY-RULES-OVERRIDE {{rules}}\n";
const PROJECT_SYSTEM = "PROJECT-SYS: you are a helpful bot.\n";

function setUp() {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/.pi/SYSTEM.md": PROJECT_SYSTEM,
    "project/docs/base.md": "PROJECT-BASE from docs\n",
    "agent/sections/rules.md": RULES,
  });
  return root;
}

/** A pi turn, mapped the way the pi integration maps it. */
async function piTurn(root: string, customPrompt: string | undefined) {
  const { options } = piRenderOptions({
    prompt: piPromptOptions(join(root, "project"), {
      customPrompt,
      selectedTools: ["read", "bash"],
      toolGuidelines: { bash: ["MY-TOOL-GUIDE no sudo"], edit: ["NOT-SELECTED"] },
      promptGuidelines: ["MY-GUIDE never force-push"],
    }),
    model: undefined,
    projectTrusted: true,
    workspaceTree: false,
    env: { PI_CODING_AGENT_DIR: join(root, "agent") },
  });
  const { cwd: _, agentDir: __, env, ...pin } = pinned(root);
  return renderSystemPrompt({ ...pin, ...options, env: { ...options.env, ...env } });
}

const left = (r: Awaited<ReturnType<typeof renderSystemPrompt>>) =>
  r.diagnostics.filter((d) => d.code === "user-text-left-out");

describe("hostile repository: a custom base prompt that may be the repository's keeps your guidelines", () => {
  it("pi's resolved project SYSTEM.md: your guidelines kept after it, your rules override named", async () => {
    const root = setUp();
    const result = await piTurn(root, PROJECT_SYSTEM);
    const { text } = result;
    expect(text).toContain("PROJECT-SYS");
    expect(text).not.toContain("MY-RULES-OVERRIDE");
    for (const mark of ["MY-GUIDE", "MY-TOOL-GUIDE"]) {
      expect(text.split(mark), mark).toHaveLength(2);
      expect(text.indexOf(mark)).toBeGreaterThan(text.indexOf("PROJECT-SYS"));
    }
    // Tool guidelines first, as the rules list orders them; an unselected tool's are not printed.
    expect(text.indexOf("MY-TOOL-GUIDE")).toBeLessThan(text.indexOf("MY-GUIDE never"));
    expect(text).not.toContain("NOT-SELECTED");
    // The resolved text may be your own SYSTEM.md (pi does not say whose): an info, no path.
    const [info, ...rest] = left(result);
    expect(rest).toEqual([]);
    expect(info?.level).toBe("info");
    expect(info?.path).toBeUndefined();
    expect(info?.message).toContain(`"rules" (${join(root, "agent/sections/rules.md")})`);
  });

  it("--system-prompt naming a project file: your guidelines kept, your base section warned", async () => {
    const root = setUp();
    const result = await renderSystemPrompt(
      pinned(root, {
        projectTrusted: true,
        systemPrompt: "./docs/base.md",
        tools: ["read", "bash"],
        toolGuidelines: { bash: ["MY-TOOL-GUIDE no sudo"] },
        promptGuidelines: ["MY-GUIDE never force-push"],
      }),
    );
    expect(result.text).toContain("PROJECT-BASE");
    expect(result.text.split("MY-GUIDE")).toHaveLength(2);
    expect(result.text.split("MY-TOOL-GUIDE")).toHaveLength(2);
    expect(left(result).map((d) => [d.level, d.path])).toEqual([
      ["warning", join(root, "project/docs/base.md")],
    ]);
    expect(left(result)[0]?.message).toContain("--system-prompt");
  });

  it("your own --system-prompt text replaces your rules section and its guidelines, as you chose: no word", async () => {
    const root = setUp();
    const result = await renderSystemPrompt(
      pinned(root, {
        projectTrusted: true,
        systemPrompt: "MY-OWN-BASE prompt",
        promptGuidelines: ["MY-GUIDE never force-push"],
      }),
    );
    expect(result.text).toContain("MY-OWN-BASE");
    expect(result.text).not.toContain("MY-GUIDE");
    expect(left(result)).toEqual([]);
  });
});
