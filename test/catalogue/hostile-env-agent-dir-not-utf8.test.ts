import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { piAgentDir, piRenderOptions } from "../../src/integrations/pi/map-options.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// $SYSPROMPT_AGENT_DIR (or pi's $PI_CODING_AGENT_DIR) naming a folder with a
// byte that is not UTF-8 reaches Node as U+FFFD, and that string opens
// nothing: the whole user layer was dropped with no word, while --agent-dir
// refuses such a path. Review rev61c F7: ignored with an `agent-dir-not-utf8`
// warning naming the variable.

/** A folder `ad<0xff>` holding an AGENTS.md, and its name as Node reads it. */
function badFolder(root: string): string {
  const raw = Buffer.concat([Buffer.from(join(root, "ad")), Buffer.from([0xff])]);
  mkdirSync(raw);
  writeFileSync(Buffer.concat([raw, Buffer.from("/AGENTS.md")]), "MY-AD-AGENTS\n");
  return raw.toString("utf8");
}

describe("catalogue: an agent dir from the environment that is not UTF-8 is said", () => {
  it("env-agent-dir-not-utf8: $SYSPROMPT_AGENT_DIR is ignored with a warning naming it", async () => {
    const root = tempDir();
    const value = badFolder(root);
    expect(value).toContain("\uFFFD");
    const { agentDir: _, ...options } = pinned(root);
    const result = await renderSystemPrompt({ ...options, env: { SYSPROMPT_AGENT_DIR: value } });
    const said = result.diagnostics.filter((d) => d.code === "agent-dir-not-utf8");
    expect(said).toHaveLength(1);
    expect(said[0]?.level).toBe("warning");
    expect(said[0]?.message).toContain(`$SYSPROMPT_AGENT_DIR is ignored: ${JSON.stringify(value)}`);
    expect(said[0]?.message).toContain("not UTF-8");
  });

  it("pi-agent-dir-not-utf8: $PI_CODING_AGENT_DIR is ignored with a warning naming it", () => {
    const root = tempDir();
    const value = badFolder(root);
    expect(piAgentDir({ PI_CODING_AGENT_DIR: value })).toBe("~/.pi/agent");
    const options = piRenderOptions({
      prompt: { cwd: root },
      model: undefined,
      projectTrusted: true,
      workspaceTree: false,
      env: { PI_CODING_AGENT_DIR: value },
    });
    const said = options.diagnostics.filter((d) => d.code === "agent-dir-not-utf8");
    expect(said).toHaveLength(1);
    expect(said[0]?.message).toContain(`$PI_CODING_AGENT_DIR is ignored: ${JSON.stringify(value)}`);
    expect(said[0]?.message).toContain("not UTF-8");
  });
});
