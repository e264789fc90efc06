import { chmodSync, chownSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { put, renderIn } from "./_private-kit.js";

// An agent dir that is itself sticky and world-writable (1777, as `/tmp`): any user may add
// his own `AGENTS.md` there, and it was read as yours; the "sticky: only another user's entry
// counts" rule was applied to the agent dir itself, its entries never asked (review rev108b F5).
// An agent dir others may write to, sticky or not, is agent-dir-shared.

const MARKER = "FOREIGN-AGENTS-108B";

describe.skipIf(process.platform === "win32")("hostile-agent-dir-sticky-world-writable", () => {
  it("a 1777 agent dir is agent-dir-shared, its files unread", async () => {
    const root = tempDir();
    const home = join(root, "home");
    mkdirSync(home, { recursive: true });
    put(join(root, "project/.git/HEAD"), "ref: refs/heads/main\n");
    const agentDir = join(root, "agent");
    put(join(agentDir, "AGENTS.md"), `${MARKER}\n`);
    if (process.getuid?.() === 0) chownSync(join(agentDir, "AGENTS.md"), 1234, 1234);
    chmodSync(agentDir, 0o1777);
    const result = await renderIn(root, agentDir, { home, projectTrusted: false });
    expect(result.text).not.toContain(MARKER);
    expect(result.diagnostics.map((d) => d.code)).toContain("agent-dir-shared");
  });
});
