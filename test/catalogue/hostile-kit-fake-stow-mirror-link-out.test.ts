import { mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates, loadPromptTemplatesSync } from "../../src/prompt-templates/index.js";
import { tempDir } from "../api/_helpers.js";
import { put, renderIn } from "./_private-kit.js";

// A kit cloned as `~/.pi/agent` commits a fake "stow mirror" of your home inside itself:
// `AGENTS.md -> sub/.pi/agent/AGENTS.md`, and that file a link to `/run/secrets/db_password`-like
// files out of your home. The stow exception took the first link below your home as yours and
// the repository it led into (the kit itself) as your dotfiles, so the secret was read as your
// instructions, your APPEND_SYSTEM.md and your prompt template (review rev108b F1). A mirror's
// file is the mirror's only when its real path, after every link, lies in that repository.

const MARKER = "SECRET-OUT-MARKER-108B";
const OUT = "out of your home folder and your agent dir";

function layout(withGitInSub: boolean) {
  const root = tempDir();
  const home = join(root, "home");
  const secret = join(root, "outside/secret.txt");
  put(secret, `${MARKER}\n`);
  put(join(root, "project/.git/HEAD"), "ref: refs/heads/main\n");
  put(join(root, "project/AGENTS.md"), "# p\n");
  put(join(home, ".ssh/config"), "Host x\n");
  const agentDir = join(home, ".pi/agent");
  const repo = withGitInSub ? join(agentDir, "sub") : agentDir;
  put(join(repo, ".git/HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(repo, ".git/objects"), { recursive: true });
  mkdirSync(join(repo, ".git/refs"), { recursive: true });
  for (const rel of ["AGENTS.md", "APPEND_SYSTEM.md", "prompts/deploy.md"]) {
    const inner = join(agentDir, "sub/.pi/agent", rel);
    mkdirSync(dirname(inner), { recursive: true });
    symlinkSync(secret, inner);
    mkdirSync(dirname(join(agentDir, rel)), { recursive: true });
    const up = rel.includes("/") ? "../" : "";
    symlinkSync(`${up}sub/.pi/agent/${rel}`, join(agentDir, rel));
  }
  return { root, home, agentDir };
}

describe("hostile-kit-fake-stow-mirror-link-out: a kit's own stow look-alike links out of your home", () => {
  for (const sub of [false, true]) {
    const how = sub ? "the kit ships sub/.git" : "the kit is the repository";
    it(`${how}: render reads none of them, each refused`, async () => {
      const { root, home, agentDir } = layout(sub);
      const result = await renderIn(root, agentDir, { home, projectTrusted: false });
      expect(JSON.stringify(result)).not.toContain(MARKER);
      // Refused as yours linked out (the kit is the repository), or by the door of the
      // repository the kit ships below itself (sub/.git): either way, not read.
      const refused = result.diagnostics
        .filter((d) => d.message.includes(OUT) || /outside-project/.test(d.code ?? ""))
        .map((d) => d.path);
      for (const rel of ["AGENTS.md", "APPEND_SYSTEM.md"])
        expect(refused).toContain(join(agentDir, rel));
    });

    it(`${how}: prompt templates read none of them`, async () => {
      const { root, home, agentDir } = layout(sub);
      const options = { cwd: join(root, "project"), agentDir, home };
      for (const result of [await loadPromptTemplates(options), loadPromptTemplatesSync(options)])
        expect(JSON.stringify(result)).not.toContain(MARKER);
    });
  }
});
