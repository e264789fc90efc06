import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectKeyKept, homeWithKey, KEY, kitAgentFolder, put, renderIn } from "./_private-kit.js";

// A kit named as the agent dir (`--agent-dir ~/kits/team/agent`, `SYSPROMPT_AGENT_DIR`,
// `PI_CODING_AGENT_DIR`) is yours: its hard links to your key, its links to it and its
// `@~/.ssh/id_rsa` import put your key in the prompt (review rev99a F5). A private file of yours
// is never read into a prompt, whoever's file names it.

describe("hostile-kit-agent-dir-private: the agent dir named into a kit", () => {
  for (const git of [true, false]) {
    it(`a kit ${git ? "checkout" : "in no repository"}: your key by a hard link, a link or an import is refused with a warning each`, async () => {
      const { root, home, key } = homeWithKey();
      const kit = join(home, "kits/team");
      if (git) put(join(kit, ".git/HEAD"), "ref: refs/heads/main\n");
      const agentDir = join(kit, "agent");
      kitAgentFolder(agentDir, key);
      expectKeyKept(await renderIn(root, agentDir), agentDir);
    });
  }

  it("named by SYSPROMPT_AGENT_DIR: the same", async () => {
    const { root, home, key } = homeWithKey();
    const agentDir = join(home, "kits/team/agent");
    kitAgentFolder(agentDir, key);
    const result = await renderIn(root, join(root, "agent"), {
      agentDir: undefined,
      env: { SYSPROMPT_AGENT_DIR: agentDir },
    });
    expect(result.text).not.toContain(KEY);
    expectKeyKept(result, agentDir);
  });
});
