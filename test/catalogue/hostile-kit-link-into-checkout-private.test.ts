import { mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates, loadPromptTemplatesSync } from "../../src/prompt-templates/index.js";
import { tempDir } from "../api/_helpers.js";
import { put, renderIn } from "./_private-kit.js";

// A link in your agent dir (a kit's, or one you were handed) into another checkout of yours,
// `~/work/app` or `/srv/app`, to its `.env` and its `.git/config` (a remote URL with a token):
// the checkout's door was asked with the checkout's own name for the file, no link below its
// root, so its private-path check never ran and `render --untrusted` printed both (review
// rev108b F2). Untrusted, both are refused; trusted, `.git/config` still is: a git folder is
// never instructions; and so is `.env`, since the checkout is not the project rendered
// (review rev109a F2: the trust is the render's project's, not the checkout's).

const ENV = "SECRET-ENV-MARKER-108";
const TOKEN = "SECRET-GITTOKEN-MARKER-108";

function layout(at: "home" | "outside") {
  const root = tempDir();
  const home = join(root, "home");
  const agentDir = join(home, ".pi/agent");
  put(join(agentDir, ".git/HEAD"), "ref: refs/heads/main\n");
  put(join(root, "project/.git/HEAD"), "ref: refs/heads/main\n");
  put(join(root, "project/AGENTS.md"), "# p\n");
  const app = at === "home" ? join(home, "work/app") : join(root, "srv/app");
  put(join(app, ".git/HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(app, ".git/objects"), { recursive: true });
  mkdirSync(join(app, ".git/refs"), { recursive: true });
  put(
    join(app, ".git/config"),
    `[remote "origin"]\n\turl = https://user:${TOKEN}@example.com/x.git\n`,
  );
  put(join(app, ".env"), `DB_PASSWORD=${ENV}\n`);
  const link = (target: string, rel: string) => {
    mkdirSync(dirname(join(agentDir, rel)), { recursive: true });
    symlinkSync(join(app, target), join(agentDir, rel));
  };
  link(".env", "AGENTS.md");
  link(".git/config", "APPEND_SYSTEM.md");
  link(".env", "prompts/env.md");
  link(".git/config", "prompts/git.md");
  put(join(agentDir, "prompts/mine.md"), "MINE-108 $1\n");
  return { root, home, agentDir };
}

describe("hostile-kit-link-into-checkout-private: your agent dir links into a checkout's private files", () => {
  for (const at of ["home", "outside"] as const) {
    const where = at === "home" ? "~/work/app" : "/srv/app";
    it(`${where}, untrusted: render reads neither .env nor .git/config`, async () => {
      const { root, home, agentDir } = layout(at);
      const result = await renderIn(root, agentDir, { home, projectTrusted: false });
      expect(JSON.stringify(result)).not.toContain(ENV);
      expect(JSON.stringify(result)).not.toContain(TOKEN);
      const said = result.diagnostics.map((d) => d.path);
      expect(said).toContain(join(agentDir, "AGENTS.md"));
      expect(said).toContain(join(agentDir, "APPEND_SYSTEM.md"));
    });

    it(`${where}, trusted: .git/config is still refused, and .env (another checkout's)`, async () => {
      const { root, home, agentDir } = layout(at);
      const result = await renderIn(root, agentDir, { home, projectTrusted: true });
      expect(JSON.stringify(result)).not.toContain(TOKEN);
      expect(JSON.stringify(result)).not.toContain(ENV);
      const refused = result.diagnostics.find((d) => d.path === join(agentDir, "APPEND_SYSTEM.md"));
      expect(refused?.message).toContain("git folder");
    });

    it(`${where}: prompt templates linked there, both loaders`, async () => {
      const { root, home, agentDir } = layout(at);
      for (const projectTrusted of [false, true]) {
        const options = { cwd: join(root, "project"), agentDir, home, projectTrusted };
        for (const r of [await loadPromptTemplates(options), loadPromptTemplatesSync(options)]) {
          expect(JSON.stringify(r)).not.toContain(TOKEN);
          expect(JSON.stringify(r)).not.toContain(ENV);
          expect(r.templates.map((t) => t.name)).toContain("mine");
          expect(r.templates.map((t) => t.name)).not.toContain("git");
          expect(r.diagnostics.map((d) => d.path)).toContain(join(agentDir, "prompts/git.md"));
        }
      }
    });
  }
});
