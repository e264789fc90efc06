import { chmodSync, chownSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";
import { IS_ROOT, NOBODY } from "./_nobody.js";

// Review rev77d F1: `export --hooks` named the running sysprompt script (and, for opencode, the
// plugin file beside it) with no walk, while the node beside it was judged by the PATH search's
// rule (rev73a F3). Installed below a 0777 folder, or another user's, the hook command printed
// ran that user's code as you at every tool call once he swapped the package. The file the
// snippet has the agent run is now judged by the same rule: refused, exit 2, naming the folder.

const NODE = "/usr/bin/node";

/** An installed package, `share/inst/dist/...`, in a new temp folder: the script and the plugin. */
function install() {
  const root = tempDir();
  chmodSync(root, 0o755);
  const share = join(root, "share");
  const dist = join(share, "inst", "dist", "src");
  mkdirSync(join(dist, "cli"), { recursive: true });
  mkdirSync(join(dist, "integrations", "opencode"), { recursive: true });
  const self = join(dist, "cli", "sysprompt.cjs");
  writeFileSync(self, "// sysprompt\n");
  const plugin = join(dist, "integrations", "opencode", "plugin.js");
  writeFileSync(plugin, "export {};\n");
  const cwd = join(root, "project");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  return { root, share, self, plugin, cwd };
}

async function hooks(agent: string, w: ReturnType<typeof install>) {
  let stdout = "";
  let stderr = "";
  const code = await run(["export", "--agent", agent, "--hooks"], {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: w.cwd,
    env: {},
    home: join(w.root, "home"),
    self: w.self,
    node: NODE,
  });
  return { code, stdout, stderr };
}

describe.runIf(process.platform === "linux")(
  "hostile-hooks-script-shared: export --hooks never names a script another user could replace (review rev77d F1)",
  () => {
    it("a sysprompt installed below a 0777 folder is refused for every agent, nothing printed", async () => {
      const w = install();
      chmodSync(w.share, 0o777);
      for (const agent of ["claude-code", "codex", "gemini-cli", "opencode"]) {
        const out = await hooks(agent, w);
        expect(out.code, agent).toBe(2);
        expect(out.stdout, agent).toBe("");
        expect(out.stderr, agent).toContain(`${w.share}: writable by other users (mode 0777)`);
        expect(out.stderr, agent).toContain(
          `the hook would run ${agent === "opencode" ? w.plugin : w.self} as you`,
        );
      }
    });

    it("opencode's plugin file that others may write is refused; the script beside it is named", async () => {
      const w = install();
      chmodSync(w.plugin, 0o666);
      const opencode = await hooks("opencode", w);
      expect(opencode.code).toBe(2);
      expect(opencode.stderr).toContain(`${w.plugin}: replaceable by another user (mode 0666`);
      const codex = await hooks("codex", w);
      expect(codex.code, codex.stderr).toBe(0);
      expect(codex.stdout).toContain(w.self);
    });

    it.runIf(IS_ROOT)(
      "a sysprompt in another user's folder (0755, his) is refused; in root's it is named (needs root)",
      async () => {
        const w = install();
        chownSync(w.share, NOBODY, NOBODY);
        const out = await hooks("claude-code", w);
        expect(out.code).toBe(2);
        expect(out.stderr).toContain(`${w.share}: owned by another user (uid ${NOBODY})`);
        chownSync(w.share, 0, 0);
        const ok = await hooks("claude-code", w);
        expect(ok.code, ok.stderr).toBe(0);
        expect(JSON.parse(ok.stdout).hooks.PostToolUse[0].hooks[0].command).toBe(
          `${NODE} ${w.self} hook claude-code`,
        );
      },
    );

    it("installed in folders of yours, the hook is printed", async () => {
      const w = install();
      const out = await hooks("opencode", w);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toContain("plugin.js");
    });
  },
);
