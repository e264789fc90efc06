import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { privateWarnings, put } from "./_private-kit.js";

// With HOME=/ (what `docker run --user 1000` with no passwd entry gives, a Kubernetes
// `runAsUser` pod, a CI container) the whole file system counted as your home folder, so a kit
// named as the agent dir read any file by its imports (`@/etc/shadow`, another folder's secret)
// and by its links (review rev109a F3). A home at the top of the file system is not yours: your
// files are read within your agent dir alone; and the private places of your user's home in the
// user database count as well as $HOME's.

const SECRET = "SECRET-FX109C-ROOT";
let passwdHome: string | undefined;
vi.mock("node:os", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:os")>();
  const userInfo = ((...a: Parameters<typeof real.userInfo>) => {
    const info = real.userInfo(...a);
    return passwdHome === undefined ? info : { ...info, homedir: passwdHome };
  }) as typeof real.userInfo;
  return { ...real, default: { ...real, userInfo }, userInfo };
});

describe("hostile-home-root-kit-imports: HOME=/ is not a home of yours", () => {
  it("a kit's imports and links out of the agent dir are refused, saying why", async () => {
    const root = tempDir();
    put(join(root, "outside/s.txt"), `${SECRET}-IMPORT\n`);
    put(join(root, "outside/l.txt"), `${SECRET}-LINK\n`);
    const kit = join(root, "kit3");
    put(join(kit, "AGENTS.md"), `KIT-MARKER\n\n@${join(root, "outside/s.txt")}\n`);
    mkdirSync(join(kit, "sections"), { recursive: true });
    symlinkSync(join(root, "outside/l.txt"), join(kit, "sections/zz.md"));
    const result = await renderSystemPrompt(pinned(root, { agentDir: kit, home: "/" }));
    expect(result.text).toContain("KIT-MARKER");
    expect(JSON.stringify(result)).not.toContain(SECRET);
    const outside = result.diagnostics.find((d) => d.code === "import-outside");
    expect(outside?.message).toContain("your home folder is /, the whole file system");
    const link = result.diagnostics.find((d) => d.path === join(kit, "sections/zz.md"));
    expect(link?.message).toContain("your home folder is /, the whole file system");
  });

  it("your user's home in the user database keeps its private places: a dotfiles checkout there cannot link its AGENTS.md to its .ssh", async () => {
    const root = tempDir();
    const dotfiles = join(root, "realhome");
    passwdHome = dotfiles;
    try {
      put(join(dotfiles, ".git/HEAD"), "ref: refs/heads/main\n");
      put(join(dotfiles, ".ssh/id_rsa"), `${SECRET}-KEY\n`);
      symlinkSync(".ssh/id_rsa", join(dotfiles, "AGENTS.md"));
      const result = await renderSystemPrompt(
        pinned(root, { cwd: dotfiles, home: "/", agentDir: join(root, "agent") }),
      );
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(privateWarnings(result.diagnostics).length).toBeGreaterThan(0);
    } finally {
      passwdHome = undefined;
    }
  });
});
