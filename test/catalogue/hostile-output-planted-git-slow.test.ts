import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, hostileProject } from "./_output-link.js";

// hostile-output-planted-git for `snapshot DIR --update` (the slow tier: a snapshot run,
// about 0.8 s): from a tarball's `p/src` that ships `src/.git`, `../shared/snaps` with the
// tarball's `p/shared` a link out wrote a golden beside the scenario outside (exit 0).

describe("hostile-output-planted-git: snapshot's goldens", () => {
  it("snapshot ../shared/snaps --update from p/src with a planted src/.git writes no golden", async () => {
    const root = hostileProject();
    rmSync(join(root, "p/.git"), { recursive: true });
    mkdirSync(join(root, "p/src/.git"));
    mkdirSync(join(root, "elsewhere/snaps"));
    writeFileSync(join(root, "elsewhere/snaps/a.scenario.yaml"), "tools: [read]\n");
    symlinkSync(join(root, "elsewhere"), join(root, "p/shared"));
    const out = await cli(root, join(root, "p/src"), ["snapshot", "../shared/snaps", "--update"], {
      pinned: false,
    });
    expect([out.code, out.stderr]).toEqual([
      2,
      `sysprompt: ${join(root, "p/shared/snaps")}: its scenario folder is really ${join(root, "elsewhere/snaps")}, outside ${join(root, "p")} (a link leads there); snapshot reads and writes goldens only in a folder inside where it is named; name the real folder if you mean it\nUsage: sysprompt snapshot [options] [dir]; see \`sysprompt snapshot --help\`.\n`,
    ]);
    expect(readdirSync(join(root, "elsewhere/snaps"))).toEqual(["a.scenario.yaml"]);
  });
});
