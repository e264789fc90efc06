import { linkSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { homeWithKey, KEY, privateWarnings, put, renderIn } from "./_private-kit.js";

// Your rule files (`rule-sources: [user:claude, …]`, `~/.pi/agent/rules`) were read with no own
// door (`readLayer` in src/gather/rules/load.ts), so `~/.claude` linked to a kit's folder of hard
// links to your key put it in a rule marked `owner="user"` (review rev99a F3). They are read
// through the door your layer's files go through, and a private file of yours is never read into
// a prompt, whoever's file names it, yours included.

const ALWAYS = "---\nalwaysApply: true\n---\n";

describe("hostile-own-rule-source-private: your rule sources name your key", () => {
  it("~/.claude -> a kit checkout's folder of hard links, and your own rules/ link to the key: refused, said", async () => {
    const { root, home, key } = homeWithKey();
    const kit = join(home, "kits/team");
    put(join(kit, ".git/HEAD"), "ref: refs/heads/main\n");
    put(join(kit, "claude/rules/ok.md"), "KIT-RULE-MARKER\n");
    linkSync(key, join(kit, "claude/rules/x.md"));
    symlinkSync(join(kit, "claude"), join(home, ".claude"));
    const agentDir = join(home, ".pi/agent");
    put(join(agentDir, "rules/mine.md"), `${ALWAYS}MY-RULE-MARKER\n`);
    symlinkSync(key, join(agentDir, "rules/y.md"));
    const result = await renderIn(root, agentDir, { ruleSources: ["sysprompt", "user:claude"] });
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(result.text).toContain("MY-RULE-MARKER");
    expect(result.text).toContain("KIT-RULE-MARKER");
    expect(JSON.stringify(result.diagnostics)).toContain(join(home, ".claude/rules/x.md"));
    expect(privateWarnings(result.diagnostics).map((d) => d.path)).toContain(
      join(agentDir, "rules/y.md"),
    );
  });

  it("~/.claude -> a kit unpacked from a tarball (no repository): its hard link is a private file of yours", async () => {
    const { root, home, key } = homeWithKey();
    const kit = join(home, "kits/team");
    put(join(kit, "claude/rules/ok.md"), "KIT-RULE-MARKER\n");
    linkSync(key, join(kit, "claude/rules/x.md"));
    symlinkSync(join(kit, "claude"), join(home, ".claude"));
    const agentDir = join(home, ".pi/agent");
    put(join(agentDir, "rules/mine.md"), `${ALWAYS}MY-RULE-MARKER\n`);
    const result = await renderIn(root, agentDir, { ruleSources: ["sysprompt", "user:claude"] });
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(result.text).toContain("KIT-RULE-MARKER");
    expect(privateWarnings(result.diagnostics).map((d) => d.path)).toContain(
      join(home, ".claude/rules/x.md"),
    );
  });

  it("~/.claude -> a kit checkout: its rule files are read through its door, which keeps its links and hard links to your other files out", async () => {
    const { root, home } = homeWithKey();
    put(join(home, "notes/diary.md"), "DIARY-MARKER\n");
    const kit = join(home, "kits/team");
    put(join(kit, ".git/HEAD"), "ref: refs/heads/main\n");
    put(join(kit, "claude/rules/ok.md"), "KIT-RULE-MARKER\n");
    symlinkSync(join(home, "notes/diary.md"), join(kit, "claude/rules/z.md"));
    linkSync(join(home, "notes/diary.md"), join(kit, "claude/rules/w.md"));
    symlinkSync(join(kit, "claude"), join(home, ".claude"));
    const agentDir = join(home, ".pi/agent");
    put(join(agentDir, "rules/mine.md"), `${ALWAYS}MY-RULE-MARKER\n`);
    const result = await renderIn(root, agentDir, { ruleSources: ["sysprompt", "user:claude"] });
    expect(result.text).toContain("KIT-RULE-MARKER");
    expect(JSON.stringify(result)).not.toContain("DIARY-MARKER");
    const refused = result.diagnostics.filter((d) => d.code === "rule-refused").map((d) => d.path);
    expect(refused).toEqual(
      expect.arrayContaining([join(home, ".claude/rules/z.md"), join(home, ".claude/rules/w.md")]),
    );
  });
});
