import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir } from "../api/_helpers.js";
import { buildLayout } from "./_fixture.js";

// A valid `.gemini/settings.json` of 124 KB (900 MCP servers and
// `context.fileName: ["TEAM.md"]`) was read only to 64 KiB by the render,
// reported "not JSON (Unexpected end of JSON input)", and TEAM.md was left
// out, while Gemini CLI reads it whole and the hook read the same file to
// 1 MiB (review rev53b F1, low). Now one cap (1 MiB) holds for both readers,
// and a file cut there that does not parse is said to be cut (its size and
// the cap), not "not JSON".

function settings(servers: number): string {
  const mcpServers: Record<string, unknown> = {};
  for (let i = 0; i < servers; i++) {
    mcpServers[`srv${i}`] = {
      command: "npx",
      args: ["-y", `some-mcp-server-package-${i}`, "--flag"],
    };
  }
  return JSON.stringify({ context: { fileName: ["TEAM.md"] }, mcpServers }, null, 2);
}

async function render(text: string) {
  const base = tempDir();
  await buildLayout(base, "gemini-settings-cap", [
    ["home/.pi/agent", { dir: true }],
    ["home/work/app/.git/HEAD", "ref: refs/heads/main\n"],
    ["home/work/app/.gemini/settings.json", text],
    ["home/work/app/TEAM.md", "TEAM-CONTEXT-MARKER\n"],
    ["home/work/app/GEMINI.md", "GEMINI-DEFAULT-MARKER\n"],
  ]);
  const home = join(base, "home");
  const r = await renderSystemPrompt({
    cwd: join(home, "work", "app"),
    home,
    agentDir: join(home, ".pi", "agent"),
    projectTrusted: true,
  });
  return {
    text: r.text,
    warnings: r.diagnostics.filter((d) => d.code === "gemini-settings").map((d) => d.message),
  };
}

describe("hostile repository: a long .gemini/settings.json", () => {
  it("a valid 124 KB settings file: its context.fileName is read", async () => {
    const text = settings(900);
    expect(Buffer.byteLength(text)).toBeGreaterThan(100 * 1024);
    const r = await render(text);
    expect(r.warnings).toEqual([]);
    expect(r.text).toContain("TEAM-CONTEXT-MARKER");
    expect(r.text).not.toContain("GEMINI-DEFAULT-MARKER");
  });

  it("a settings file over 1 MiB: said to be cut, not 'not JSON'", async () => {
    const text = settings(9000);
    const size = Buffer.byteLength(text);
    expect(size).toBeGreaterThan(1024 * 1024);
    const r = await render(text);
    expect(r.warnings).toEqual([
      `is 1.2 MiB, over the 1 MiB cap: only its first 1 MiB read (${size - 1024 * 1024} bytes left out), which is not JSON on its own; context.fileName not read, GEMINI.md used`,
    ]);
    expect(r.text).toContain("GEMINI-DEFAULT-MARKER");
    expect(r.text).not.toContain("TEAM-CONTEXT-MARKER");
  });
});
