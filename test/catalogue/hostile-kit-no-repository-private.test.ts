import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { expectKeyKept, homeWithKey, kitAgentFolder, renderIn } from "./_private-kit.js";

// A kit in no repository (unpacked from a tarball or a zip into `~/kits/team`, `~/.pi` linked to
// it) is yours by the rule that a folder in no repository is yours: its hard links to your key,
// its links to it and its `@~/.ssh/id_rsa` import put your key in the prompt (review rev99a F2).
// A private file of yours is never read into a prompt, whoever's file names it.

describe("hostile-kit-no-repository-private: ~/.pi -> ~/kits/team, unpacked from a tarball", () => {
  it("your key, by a hard link, a link or an import of the kit's, is refused with a warning each", async () => {
    const { root, home, key } = homeWithKey();
    const kit = join(home, "kits/team");
    kitAgentFolder(join(kit, "agent"), key);
    symlinkSync(kit, join(home, ".pi"));
    const agentDir = join(home, ".pi/agent");
    expectKeyKept(await renderIn(root, agentDir), agentDir);
  });
});
