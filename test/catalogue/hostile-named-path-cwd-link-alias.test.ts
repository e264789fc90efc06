import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// rev58a F2 (medium): the working folder named through a link (an editor's workspace
// `ws/app -> ~/src/mono/packages/app`) and a file named through another link of yours to the same
// folder (`~/app/readme.md`, `~/app -> …/packages/app`): the path is inside neither the working
// folder as given nor its real folder, so the project was found from the link's spelling (no
// repository above `ws/app`), and `--untrusted` read the committed `readme.md -> local.md` that
// mono's `.gitignore` names, and `cfg.md -> secret.json` that its `.git/info/exclude` names.
// The project is now found from the real folder.

function layout() {
  const root = tempDir();
  const mono = join(root, "home", "src", "mono");
  const app = join(mono, "packages", "app");
  writeFiles(mono, {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/info/exclude": "secret.json\n",
    ".gitignore": "local.md\n",
    "AGENTS.md": "MONO-AGENTS\n",
    "packages/app/local.md": "IGN-LOCAL-MARKER\n",
    "packages/app/secret.json": "PRIV-INFOEXCLUDE-MARKER\n",
    "packages/app/plain.md": "PLAIN-APP-NOTES\n",
  });
  for (const dir of ["objects", "refs"]) mkdirSync(join(mono, ".git", dir));
  symlinkSync("local.md", join(app, "readme.md"));
  symlinkSync("secret.json", join(app, "cfg.md"));
  mkdirSync(join(root, "ws"));
  symlinkSync(app, join(root, "ws", "app"));
  symlinkSync(app, join(root, "home", "app"));
  return { root, cwd: join(root, "ws", "app"), alias: join(root, "home", "app") };
}

describe("hostile-named-path-cwd-link-alias: a file named through another link into the linked working folder", () => {
  it("is judged in the project found from the real folder: the ignored and excluded files are refused", async () => {
    const { root, cwd, alias } = layout();
    const base = pinned(root, { cwd, projectTrusted: false });
    for (const name of ["readme.md", "cfg.md"]) {
      await expect(
        renderSystemPrompt({ ...base, appendSystemPrompt: join(alias, name) }),
      ).rejects.toThrow(/not read: the project is not trusted .* ignored/);
      await expect(
        renderSystemPrompt({ ...base, systemPrompt: join(alias, name) }),
      ).rejects.toThrow(/not read: the project is not trusted .* ignored/);
    }
    // The project's plain file, named the same way, is read (as the repository's text).
    const plain = await renderSystemPrompt({
      ...base,
      appendSystemPrompt: join(alias, "plain.md"),
    });
    expect(plain.text).toContain("PLAIN-APP-NOTES");
  });
});
