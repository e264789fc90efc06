import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { expectKitHeld, expectKitYours, kitAt, kitLayout, kitRefusals } from "./_kit.js";

// Review rev55b F1 (medium): a kit registered by `yarn link` (yarn v1 links it as
// `~/.config/yarn/link/<name>` or `~/.config/yarn/link/@scope/<name>`) was no package: your
// AGENTS.md importing `@~/.config/yarn/link/prompt-kit/base.md` read the kit's
// `@~/.ssh/id_ed25519` into your `<team_policy>`, which its `</team_policy>` closed. Now a folder
// `link` in a `yarn` folder (Windows: `Yarn/Data/link`) is a modules folder, as `node_modules` is.

/** Your secrets, a project, your AGENTS.md importing `spelled`, and the kit in ~/src/kit. */
function layout(root: string, spelled: string) {
  kitLayout(root, spelled);
  kitAt(root, "src/kit");
}

/** `yarn link` in ~/src/kit: `<registry>/<name> -> ~/src/kit`. */
function yarnLink(root: string, registry: string, name: string) {
  const at = join(root, "home", registry, name);
  mkdirSync(join(at, ".."), { recursive: true });
  symlinkSync(join(root, "home/src/kit"), at);
}

describe("hostile-kit-yarn-link: a kit in yarn's link registry is a package", () => {
  for (const [registry, name] of [
    [".config/yarn/link", "prompt-kit"],
    [".config/yarn/link", "@acme/kit"],
    ["AppData/Local/Yarn/Data/link", "prompt-kit"],
  ] as const) {
    for (const projectTrusted of [true, false]) {
      it(`${registry}/${name} -> ~/src/kit (trusted ${projectTrusted})`, async () => {
        const root = tempDir();
        layout(root, `${registry}/${name}/base.md`);
        yarnLink(root, registry, name);
        const r = await renderSystemPrompt(pinned(root, { projectTrusted }));
        expectKitHeld(r.text);
        const kitFile = join(root, "home/src/kit/base.md");
        expect(kitRefusals(r.diagnostics, kitFile)).toEqual(["@~/.ssh/id_ed25519", "@./aws.md"]);
      });
    }
  }

  it("the same folder named by its own path stays yours", async () => {
    const root = tempDir();
    layout(root, "src/kit/base.md");
    yarnLink(root, ".config/yarn/link", "prompt-kit");
    const r = await renderSystemPrompt(pinned(root));
    // Decided in docs/trust.md: a folder in no repository and no package, as you name it, is
    // yours; your private files it names are not (review rev99a F2).
    expectKitYours(r);
  });
});
