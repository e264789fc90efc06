import { mkdirSync, symlinkSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates, loadPromptTemplatesSync } from "../../src/prompt-templates/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { put, renderIn } from "./_private-kit.js";

// A kit in your agent dir links (or imports) another checkout's ignored or hidden files,
// `/srv/app/.env`, `/srv/app/config/secrets.yml`: a trusted render of any project read them,
// since the checkout's door took the render's trust, and the trust a render gives is its own
// project's, not /srv/app's nor the kit's (review rev109a F2). Refused now in every render but
// the checkout's own trusted one, in words naming the checkout. Kept: your dotfiles checkout's
// tracked file, your stowed dotfiles' hidden `.pi/agent/...` files, and the render's own
// trusted project's ignored file, linked from your files.

const ENV = "SECRET-SRVENV-MARKER-109";
const YML = "SECRET-SRVYML-MARKER-109";
const CREDS = "SECRET-CREDS-MARKER-109";

function repo(dir: string): void {
  put(join(dir, ".git/HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(dir, ".git/objects"), { recursive: true });
  mkdirSync(join(dir, ".git/refs"), { recursive: true });
}

function layout(at: "home" | "outside") {
  const root = tempDir();
  const home = join(root, "home");
  const agentDir = join(home, ".pi/agent");
  mkdirSync(agentDir, { recursive: true });
  repo(join(root, "project"));
  put(join(root, "project/AGENTS.md"), "# p\n");
  const app = at === "home" ? join(home, "work/app") : join(root, "srv/app");
  repo(app);
  put(join(app, ".gitignore"), ".env\nconfig/secrets.yml\ncreds.txt\n");
  put(join(app, ".env"), `DB_PASSWORD=${ENV}\n`);
  put(join(app, "config/secrets.yml"), `key: ${YML}\n`);
  put(join(app, "creds.txt"), `${CREDS}\n`);
  put(join(app, "README.md"), "# app\n");
  const link = (target: string, rel: string) => {
    mkdirSync(dirname(join(agentDir, rel)), { recursive: true });
    symlinkSync(join(app, target), join(agentDir, rel));
  };
  link(".env", "AGENTS.md");
  link("config/secrets.yml", "APPEND_SYSTEM.md");
  link("config/secrets.yml", "prompts/deploy.md");
  put(join(agentDir, "prompts/mine.md"), "MINE-109 $1\n");
  return { root, home, agentDir, app };
}

const secrets = (r: unknown) => [ENV, YML, CREDS].filter((m) => JSON.stringify(r).includes(m));

describe("hostile-kit-link-other-checkout-private: a kit links another checkout's private files", () => {
  for (const at of ["home", "outside"] as const) {
    const where = at === "home" ? "~/work/app" : "/srv/app";

    for (const projectTrusted of [true, false]) {
      it(`${where}, a ${projectTrusted ? "trusted" : "untrusted"} render of another project reads none, in words naming the checkout`, async () => {
        const { root, home, agentDir, app } = layout(at);
        const result = await renderIn(root, agentDir, { home, projectTrusted });
        expect(secrets(result)).toEqual([]);
        for (const file of ["AGENTS.md", "APPEND_SYSTEM.md"]) {
          const said = result.diagnostics.find((d) => d.path === join(agentDir, file));
          expect(said?.message).toContain(`a private file of the checkout ${app}`);
          expect(said?.message).not.toContain("trust the project");
        }
      });
    }

    it(`${where}: prompt templates linked there, both loaders, trusted or not`, async () => {
      const { root, home, agentDir } = layout(at);
      for (const projectTrusted of [true, false]) {
        const options = { cwd: join(root, "project"), agentDir, home, projectTrusted };
        for (const r of [await loadPromptTemplates(options), loadPromptTemplatesSync(options)]) {
          expect(secrets(r)).toEqual([]);
          expect(r.templates.map((t) => t.name)).toEqual(["mine"]);
          expect(r.diagnostics.map((d) => d.path)).toContain(join(agentDir, "prompts/deploy.md"));
        }
      }
    });

    it(`${where}: your AGENTS.md's imports of its ignored and hidden files, trusted`, async () => {
      const { root, home, agentDir, app } = layout(at);
      const rel = at === "home" ? "~/work/app" : app;
      const file = join(agentDir, "AGENTS.md");
      unlinkSync(file);
      put(file, `KIT-109\n\n@${rel}/.env\n\n@${rel}/creds.txt\n\n@${rel}/README.md\n`);
      const result = await renderIn(root, agentDir, { home, projectTrusted: true });
      expect(result.text).toContain("KIT-109");
      expect(secrets(result)).toEqual([]);
      // Within your home, the checkout's tracked file is read: only its private files are held
      // (out of it, your imports reach nothing, as before).
      if (at === "home") expect(result.text).toContain("# app");
    });

    it(`${where} rendered itself, trusted: your link to its .env is read (its own trust)`, async () => {
      const { root, home, agentDir, app } = layout(at);
      const options = { cwd: app, agentDir, home };
      const trusted = await renderSystemPrompt(pinned(root, { ...options, projectTrusted: true }));
      expect(trusted.text).toContain(ENV);
      const untrusted = await renderSystemPrompt(
        pinned(root, { ...options, projectTrusted: false }),
      );
      expect(JSON.stringify(untrusted)).not.toContain(ENV);
      const said = untrusted.diagnostics.find((d) => d.path === join(agentDir, "AGENTS.md"));
      expect(said?.message).toContain("trust the project");
    });
  }

  it("your dotfiles: a tracked file of a dotfiles checkout and a stowed .pi/agent file are read", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const agentDir = join(home, ".pi/agent");
    repo(join(root, "project"));
    const dotfiles = join(home, "dotfiles");
    repo(dotfiles);
    put(join(dotfiles, ".gitignore"), "secret.md\n");
    put(join(dotfiles, "pi/AGENTS.md"), "DOTFILES-AGENTS-109\n");
    put(join(dotfiles, "stow/.pi/agent/prompts/stowed.md"), "STOWED-109 $1\n");
    mkdirSync(join(agentDir, "prompts"), { recursive: true });
    symlinkSync(join(dotfiles, "pi/AGENTS.md"), join(agentDir, "AGENTS.md"));
    symlinkSync(
      join(dotfiles, "stow/.pi/agent/prompts/stowed.md"),
      join(agentDir, "prompts/stowed.md"),
    );
    for (const projectTrusted of [true, false]) {
      const result = await renderIn(root, agentDir, { home, projectTrusted });
      expect(result.text).toContain("DOTFILES-AGENTS-109");
      const options = { cwd: join(root, "project"), agentDir, home, projectTrusted };
      for (const r of [await loadPromptTemplates(options), loadPromptTemplatesSync(options)]) {
        expect(r.templates.map((t) => t.name)).toContain("stowed");
      }
    }
  });
});
