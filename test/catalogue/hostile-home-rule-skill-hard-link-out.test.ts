import { linkSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { put, renderIn } from "./_private-kit.js";

// The hard-link rule for your files (review rev108b F4) covered only the agent dir: a hard link in
// your home's other folders to a file out of your home (`~/.claude/rules/team.md`, read by
// `rule-sources: [sysprompt, user:claude]`, and `~/.agents/skills/deploy/SKILL.md`, each a second
// name of `/srv/app/db_password`) was read, its real path being its own name (review rev109f F7).
// Every file of yours read for an agent dir with more than one name is refused now, as the
// confinement of your files to your home and agent dir already was.

const RULE = "SECRET-HARDLINK-MARKER";
const SKILL = "SECRET-SKILL-MARKER";

describe("hostile-home-rule-skill-hard-link-out: your home's rule and skill files are hard links out of it", () => {
  it("refuses both with the door's hard-link wording, and reads your other rule", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const agentDir = join(home, ".pi/agent");
    put(join(agentDir, "sysprompt.yaml"), "rule-sources: [sysprompt, user:claude]\n");
    put(join(root, "srv/app/db_password"), `DBPW=${RULE}\n`);
    put(
      join(root, "srv/app/skill.md"),
      `---\nname: deploy\ndescription: deploy ${SKILL}\n---\nx\n`,
    );
    mkdirSync(join(home, ".claude/rules"), { recursive: true });
    mkdirSync(join(home, ".agents/skills/deploy"), { recursive: true });
    linkSync(join(root, "srv/app/db_password"), join(home, ".claude/rules/team.md"));
    linkSync(join(root, "srv/app/skill.md"), join(home, ".agents/skills/deploy/SKILL.md"));
    put(join(home, ".claude/rules/mine.md"), "MY-CLAUDE-RULE-109\n");
    put(join(root, "project/.git/HEAD"), "ref: refs/heads/main\n");
    const result = await renderIn(root, agentDir, {
      home,
      projectTrusted: false,
      configFiles: true,
    });
    expect(JSON.stringify(result)).not.toContain(RULE);
    expect(JSON.stringify(result)).not.toContain(SKILL);
    expect(result.text).toContain("MY-CLAUDE-RULE-109");
    const refused = result.diagnostics
      .filter((d) => d.message.includes("names (hard links to one file)"))
      .map((d) => d.path);
    expect(refused).toContain(join(home, ".claude/rules/team.md"));
    expect(refused).toContain(join(home, ".agents/skills/deploy/SKILL.md"));
  });
});
