import { linkSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { put, renderIn } from "./_private-kit.js";

// A kit unpacked as your agent dir (Python's `tarfile` makes a hard link member naming
// `/srv/app/db_password`) holds `AGENTS.md`, a hard link to a file out of your home on the same
// file system: its real path is its own name, so no link led out, and it was read as your
// instructions (review rev108b F4). A file of the agent dir with more than one name is refused,
// as a checkout's door refuses one.

const MARKER = "DB-PASSWORD-MARKER-108B";

describe("hostile-kit-agent-dir-hard-link-out: a hard link in your agent dir to a file out of your home", () => {
  it("is refused with the door's hard-link wording, never read", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const outside = join(root, "srv/db_password");
    put(outside, `${MARKER}\n`);
    put(join(root, "project/.git/HEAD"), "ref: refs/heads/main\n");
    const agentDir = join(home, ".pi/agent");
    mkdirSync(agentDir, { recursive: true });
    linkSync(outside, join(agentDir, "AGENTS.md"));
    linkSync(outside, join(agentDir, "APPEND_SYSTEM.md"));
    const result = await renderIn(root, agentDir, { home, projectTrusted: false });
    expect(JSON.stringify(result)).not.toContain(MARKER);
    const refused = result.diagnostics
      .filter((d) => d.message.includes("names (hard links to one file)"))
      .map((d) => d.path);
    expect(refused).toContain(join(agentDir, "AGENTS.md"));
    expect(refused).toContain(join(agentDir, "APPEND_SYSTEM.md"));
  });
});
