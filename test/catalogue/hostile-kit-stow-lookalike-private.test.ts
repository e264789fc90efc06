import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { expectKeyKept, homeWithKey, kitAgentFolder, put, renderIn } from "./_private-kit.js";

// A kit checkout laid out one folder deeper (`~/.pi -> ~/kits/team/.pi`, the kit's `.git` at
// `~/kits/team`) mirrors your home there as a stow package would, so it is taken as yours
// (`mirroredRepository`): its hard links to your key, its links to it and its `@~/.ssh/id_rsa`
// import put your key in the prompt (review rev99a F1). A private file of yours is never read
// into a prompt, whoever's file names it: each is a warning, the rest of the kit is read.

describe("hostile-kit-stow-lookalike-private: ~/.pi -> ~/kits/team/.pi, a checkout that looks like a stow package", () => {
  it("your key, by a hard link, a link or an import of the kit's, is refused with a warning each", async () => {
    const { root, home, key } = homeWithKey();
    const kit = join(home, "kits/team");
    put(join(kit, ".git/HEAD"), "ref: refs/heads/main\n");
    mkdirSync(join(kit, ".pi"), { recursive: true });
    kitAgentFolder(join(kit, ".pi/agent"), key);
    symlinkSync(join(kit, ".pi"), join(home, ".pi"));
    const agentDir = join(home, ".pi/agent");
    expectKeyKept(await renderIn(root, agentDir), agentDir);
  });
});
