import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { expectKitHeld, expectKitYours, kitAt, kitLayout, kitRefusals } from "./_kit.js";

// Review rev54b F1 (medium): a kit installed through a LINK was read as YOUR text. `npm i -g
// ~/Downloads/prompt-kit-1.0.0` and `npm link` make `node_modules/prompt-kit -> ../../…/kit`, and a
// `node_modules` may itself be a link to a store; the package rule (rev53a F1) asked only the REAL
// folder's names, so the kit's `@~/.ssh/id_ed25519` and `@../../.aws/credentials` were read into
// your `<team_policy>`, which its `</team_policy>` closed. Now a folder is a package when the names
// it was reached by say so (a link named `node_modules/<name>`, `node_modules/@scope/<name>`, or a
// linked `node_modules`), or its real names do (deno's npm cache too).

describe("hostile-kit-npm-link: a kit reached through a link named as a package is a package", () => {
  for (const projectTrusted of [true, false]) {
    it(`npm i -g <folder> / npm link: node_modules/prompt-kit -> ~/Downloads/… (trusted ${projectTrusted})`, async () => {
      const root = tempDir();
      kitLayout(root, ".local/lib/node_modules/prompt-kit/base.md");
      kitAt(root, "Downloads/prompt-kit-1.0.0");
      mkdirSync(join(root, "home/.local/lib/node_modules"), { recursive: true });
      symlinkSync(
        "../../../Downloads/prompt-kit-1.0.0",
        join(root, "home/.local/lib/node_modules/prompt-kit"),
      );
      const r = await renderSystemPrompt(pinned(root, { projectTrusted }));
      expectKitHeld(r.text);
      const kitFile = join(root, "home/Downloads/prompt-kit-1.0.0/base.md");
      expect(kitRefusals(r.diagnostics, kitFile)).toEqual(["@~/.ssh/id_ed25519", "@./aws.md"]);
    });
  }

  it("a linked node_modules (node_modules -> ~/.kits-store)", async () => {
    const root = tempDir();
    kitLayout(root, ".local/lib/node_modules/prompt-kit/base.md");
    kitAt(root, ".kits-store/prompt-kit");
    mkdirSync(join(root, "home/.local/lib"), { recursive: true });
    symlinkSync("../../.kits-store", join(root, "home/.local/lib/node_modules"));
    expectKitHeld((await renderSystemPrompt(pinned(root))).text);
  });

  it("a linked scope folder (node_modules/@acme -> ~/store/acme)", async () => {
    const root = tempDir();
    kitLayout(root, "lib/node_modules/@acme/kit/base.md");
    kitAt(root, "store/acme/kit");
    mkdirSync(join(root, "home/lib/node_modules"), { recursive: true });
    symlinkSync("../../store/acme", join(root, "home/lib/node_modules/@acme"));
    expectKitHeld((await renderSystemPrompt(pinned(root))).text);
  });

  it("deno's npm cache (npm/registry.npmjs.org/<name>/<version>)", async () => {
    const root = tempDir();
    kitLayout(root, ".cache/deno/npm/registry.npmjs.org/prompt-kit/1.0.0/base.md");
    kitAt(root, ".cache/deno/npm/registry.npmjs.org/prompt-kit/1.0.0");
    expectKitHeld((await renderSystemPrompt(pinned(root))).text);
  });

  it("the same plain folder named by its own path stays yours", async () => {
    const root = tempDir();
    kitLayout(root, "Downloads/prompt-kit-1.0.0/base.md");
    kitAt(root, "Downloads/prompt-kit-1.0.0");
    mkdirSync(join(root, "home/.local/lib/node_modules"), { recursive: true });
    symlinkSync(
      "../../../Downloads/prompt-kit-1.0.0",
      join(root, "home/.local/lib/node_modules/prompt-kit"),
    );
    const r = await renderSystemPrompt(pinned(root));
    // Decided in docs/trust.md: a folder in no repository and no package, as you name it, is
    // yours; your private files it names are not (review rev99a F2).
    expectKitYours(r);
  });
});
