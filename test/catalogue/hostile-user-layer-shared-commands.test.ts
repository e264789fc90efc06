import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "../cli/_run.js";
import { giveAway, IS_ROOT, put, sharedFolder } from "./_nobody.js";

// An agent dir another user could fill (review rev77d F2, test/catalogue/hostile-user-layer-shared.test.ts)
// is left out by every command that reads it, with its `agent-dir-shared` warning. Review fx78b's
// leftover: `list`, `check` and `expand` left it out with no word (its templates and skills
// missing from the list, its sections from the check); only a render, `sections` and `explain`
// said why. Now each says the one warning `ownAgentDir` gives, once. The other user (uid 65534)
// is played by handing him the entries, so the cases need root.

const MARK = "OTHER-USER-MARKER";

describe.runIf(IS_ROOT && process.platform === "linux")(
  "catalogue: every command that reads a shared agent dir says why it is left out (fx78b's leftover)",
  () => {
    for (const argv of [
      ["render"],
      ["list"],
      ["check"],
      ["expand", "hello"],
      ["sections"],
      ["explain"],
    ]) {
      it(`agent-dir-below-0777-share-said-by-${argv[0]}: \`${argv.join(" ")}\` says the warning once`, async () => {
        const root = tempDir();
        put(join(root, "project/AGENTS.md"), "# the repository\n");
        mkdirSync(join(root, "project/.git"));
        const dir = join(sharedFolder(root, "share", 0o777), "agent");
        put(join(dir, "AGENTS.md"), `AGENTS-${MARK}\n`);
        put(join(dir, "sections/rules.md"), `---\norder: 1\n---\nSECTION-${MARK}\n`);
        put(
          join(dir, "skills/evil/SKILL.md"),
          `---\nname: evil\ndescription: SKILL-${MARK}\n---\nbody\n`,
        );
        put(join(dir, "prompts/evil.md"), `TEMPLATE-${MARK}\n`);
        giveAway(dir);
        const run = await cli(root, [...argv, "--agent-dir", dir], false);
        expect(run.stdout).not.toContain(MARK);
        // `check` prints its report on stdout, the others their diagnostics on stderr.
        const said = `${run.stdout}${run.stderr}`
          .split("\n")
          .filter((line) => line.includes("[agent-dir-shared]"));
        expect(said).toHaveLength(1);
        expect(said[0]).toContain(`the agent dir ${dir} is not read as your user layer`);
        expect(said[0]).toContain(`${join(root, "share")}: writable by other users (mode 0777`);
      });
    }
  },
);
