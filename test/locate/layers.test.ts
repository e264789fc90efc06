import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandHome } from "../../src/_paths.js";
import { resolveAgentDir } from "../../src/locate/layers.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { copyScenario, NOW } from "../api/_helpers.js";

describe("resolveAgentDir", () => {
  const base = { home: "/home/pat", cwd: "/work/app" };

  it("the option wins over $SYSPROMPT_AGENT_DIR, which wins over ~/.pi/agent", () => {
    const env = { SYSPROMPT_AGENT_DIR: "/env/agent" };
    expect(resolveAgentDir({ ...base, env, agentDir: "/opt/agent" })).toBe("/opt/agent");
    expect(resolveAgentDir({ ...base, env })).toBe("/env/agent");
    expect(resolveAgentDir({ ...base, env: {} })).toBe("/home/pat/.pi/agent");
    // An empty variable is unset, not the current folder.
    expect(resolveAgentDir({ ...base, env: { SYSPROMPT_AGENT_DIR: "" } })).toBe(
      "/home/pat/.pi/agent",
    );
  });

  it("expands a leading ~ to the given home and resolves relative paths against cwd", () => {
    expect(resolveAgentDir({ ...base, env: {}, agentDir: "~/agents/pi" })).toBe(
      "/home/pat/agents/pi",
    );
    expect(resolveAgentDir({ ...base, env: { SYSPROMPT_AGENT_DIR: "~" } })).toBe("/home/pat");
    expect(resolveAgentDir({ ...base, env: {}, agentDir: "agent" })).toBe("/work/app/agent");
    expect(expandHome("~user/x", "/home/pat")).toBe("~user/x");
  });

  it("renderSystemPrompt reads the user layer from $SYSPROMPT_AGENT_DIR when no agentDir is given", async () => {
    const root = copyScenario("layers", "project-over-user-over-builtin");
    mkdirSync(join(root, "home"));
    const result = await renderSystemPrompt({
      cwd: join(root, "home"),
      home: join(root, "home"),
      env: { SYSPROMPT_AGENT_DIR: join(root, "agent") },
      now: NOW,
      machine: { platform: "linux", arch: "x64" },
      noContextFiles: true,
    });
    expect(result.sections.find((s) => s.name === "cwd")).toEqual({
      name: "cwd",
      text: `<workdir>\nCurrent working directory: ${join(root, "home")}\nUser note: keep scratch files in /tmp.\n</workdir>`,
      source: { layer: "user", path: join(root, "agent", "sections", "cwd.md") },
    });
  });
});
