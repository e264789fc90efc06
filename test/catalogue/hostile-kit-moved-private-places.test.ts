import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadPromptTemplates, loadPromptTemplatesSync } from "../../src/prompt-templates/load.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { privateWarnings, put } from "./_private-kit.js";

// A kit cloned as `~/.pi/agent` (a team kit is a threat: rev99a, rev104a F2, rev107a F2) whose
// `AGENTS.md` imports your credentials where an environment variable keeps them
// (`CLAUDE_CONFIG_DIR=~/.claude-work`, `CODEX_HOME`, `XDG_CONFIG_HOME`, `GNUPGHOME`, …), or where a
// tool keeps them by default but the private places did not name (`~/.local/share/fish`,
// `~/.config/sops/age/keys.txt`, `~/.m2/settings.xml`, …), printed every secret with no warning:
// the private places joined fixed names to the home folder and read no environment (review
// rev109a F1).

const SECRET = "SECRET-FX109C";

/** A home with your kit as its `.pi/agent`, a secret at each of `files` (from the home), imported. */
function kitImporting(files: readonly string[]) {
  const root = tempDir();
  const home = join(root, "home");
  for (const [n, file] of files.entries()) put(join(home, file), `${SECRET}-${n}\n`);
  const agentDir = join(home, ".pi/agent");
  const imports = files.map((f) => `@~/${f}`).join("\n\n");
  put(join(agentDir, "AGENTS.md"), `KIT-MARKER\n\n${imports}\n`);
  put(join(root, "project/.git/HEAD"), "ref: refs/heads/main\n");
  return { root, home, agentDir };
}

function expectNoneRead(
  result: { text: string; diagnostics: readonly import("../../src/types.js").Diagnostic[] },
  files: readonly string[],
) {
  expect(result.text).toContain("KIT-MARKER");
  expect(result.text).not.toContain(SECRET);
  expect(JSON.stringify(result)).not.toContain(SECRET);
  expect(privateWarnings(result.diagnostics)).toHaveLength(files.length);
}

const MOVED = [
  ".claude-work/.credentials.json",
  ".claude-work/.claude.json",
  ".claude-work/settings.json",
  ".codex-work/auth.json",
  ".codex-work/config.toml",
  ".xdg-config/gh/hosts.yml",
  ".xdg-config/sops/age/keys.txt",
  ".xdg-config/git/config",
  ".xdg-data/opencode/auth.json",
  ".xdg-data/fish/fish_history",
  ".dock/config.json",
  ".gpg2/private.key",
  ".pass/work/db.gpg",
  ".gh2/hosts.yml",
  "creds/aws-credentials",
  "creds/aws-config",
  "creds/kube-a",
  "creds/kube-b",
];

describe("hostile-kit-moved-private-places: your private places where the environment puts them", () => {
  it("a kit's imports of the places CLAUDE_CONFIG_DIR, CODEX_HOME, the XDG folders and the tools' variables move are refused", async () => {
    const { root, home, agentDir } = kitImporting(MOVED);
    const result = await renderSystemPrompt(
      pinned(root, {
        agentDir,
        env: {
          CLAUDE_CONFIG_DIR: join(home, ".claude-work"),
          CODEX_HOME: "~/.codex-work",
          XDG_CONFIG_HOME: join(home, ".xdg-config"),
          XDG_DATA_HOME: join(home, ".xdg-data"),
          DOCKER_CONFIG: join(home, ".dock"),
          GNUPGHOME: join(home, ".gpg2"),
          PASSWORD_STORE_DIR: join(home, ".pass"),
          GH_CONFIG_DIR: join(home, ".gh2"),
          AWS_SHARED_CREDENTIALS_FILE: join(home, "creds/aws-credentials"),
          AWS_CONFIG_FILE: join(home, "creds/aws-config"),
          KUBECONFIG: `${join(home, "creds/kube-a")}:${join(home, "creds/kube-b")}`,
        },
      }),
    );
    expectNoneRead(result, MOVED);
    const said = privateWarnings(result.diagnostics).map((d) => d.message);
    expect(said.some((m) => m.includes("$CLAUDE_CONFIG_DIR/.credentials.json"))).toBe(true);
  });

  const DEFAULTS = [
    ".histfile",
    ".zhistory",
    ".sqlite_history",
    ".kshrc",
    ".local/share/fish/fish_history",
    ".config/sops/age/keys.txt",
    ".config/age/keys.txt",
    ".config/github-copilot/apps.json",
    ".config/containers/auth.json",
    ".local/share/containers/auth.json",
    ".m2/settings.xml",
    ".gradle/gradle.properties",
    ".config/rclone/rclone.conf",
    ".config/composer/auth.json",
    ".config/doctl/config.yaml",
    ".config/hcloud/cli.toml",
    ".ollama/id_ed25519",
  ];

  it("a kit's imports of the tools' default places the list missed are refused", async () => {
    const { root, agentDir } = kitImporting(DEFAULTS);
    expectNoneRead(await renderSystemPrompt(pinned(root, { agentDir })), DEFAULTS);
  });

  it("a kit's prompt template linked to your fish history is not loaded as a template", async () => {
    const { root, home, agentDir } = kitImporting([]);
    put(join(home, ".local/share/fish/fish_history"), `- cmd: export TOKEN=${SECRET}\n`);
    const { symlinkSync, mkdirSync } = await import("node:fs");
    mkdirSync(join(agentDir, "prompts"), { recursive: true });
    symlinkSync(join(home, ".local/share/fish/fish_history"), join(agentDir, "prompts/hist.md"));
    const loaded = await loadPromptTemplates({
      cwd: join(root, "project"),
      agentDir,
      home,
      env: {},
    });
    expect(JSON.stringify(loaded)).not.toContain(SECRET);
  });

  it("a template linked to $CLAUDE_CONFIG_DIR/.credentials.json is refused by the loaders given that environment", async () => {
    const { root, home, agentDir } = kitImporting([]);
    put(join(home, ".claude-work/.credentials.json"), `{"token":"${SECRET}"}\n`);
    const { symlinkSync, mkdirSync } = await import("node:fs");
    mkdirSync(join(agentDir, "prompts"), { recursive: true });
    symlinkSync(join(home, ".claude-work/.credentials.json"), join(agentDir, "prompts/creds.md"));
    const options = {
      cwd: join(root, "project"),
      agentDir,
      home,
      env: { CLAUDE_CONFIG_DIR: join(home, ".claude-work") },
    };
    expect(JSON.stringify(await loadPromptTemplates(options))).not.toContain(SECRET);
    expect(JSON.stringify(loadPromptTemplatesSync(options))).not.toContain(SECRET);
  });

  it("yours as before: CLAUDE_CONFIG_DIR=~/.claude keeps ~/.claude/CLAUDE.md and rules readable, and a relative XDG_CONFIG_HOME moves nothing", async () => {
    const files = [".claude/CLAUDE.md", ".claude/rules/style.md", "cfg/gh/notes.md"];
    const root = tempDir();
    const home = join(root, "home");
    for (const [n, file] of files.entries()) put(join(home, file), `YOURS-${n}\n`);
    const agentDir = join(home, ".pi/agent");
    put(join(agentDir, "AGENTS.md"), `KIT-MARKER\n\n${files.map((f) => `@~/${f}`).join("\n\n")}\n`);
    put(join(root, "project/.git/HEAD"), "ref: refs/heads/main\n");
    const result = await renderSystemPrompt(
      pinned(root, { agentDir, env: { CLAUDE_CONFIG_DIR: "~/.claude", XDG_CONFIG_HOME: "cfg" } }),
    );
    for (const n of [0, 1, 2]) expect(result.text).toContain(`YOURS-${n}`);
    expect(privateWarnings(result.diagnostics)).toEqual([]);
  });
});
