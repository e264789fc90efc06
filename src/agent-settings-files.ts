import type { ToolAgent } from "./hook/input.js";

/** Gemini CLI's settings file, in a project or your home folder. */
export const GEMINI_SETTINGS = ".gemini/settings.json";

/**
 * pi's configuration in its agent dir (`~/.pi/agent`, or the one
 * `--agent-dir` or `SYSPROMPT_AGENT_DIR` names): its settings, its models
 * (providers' API keys) and its logins. One list for {@link SETTINGS_FILES}
 * and for your private files (src/repo-files/own-private.ts), so the two
 * never drift (review rev104a F2).
 */
export const PI_AGENT_CONFIG_FILES: readonly string[] = [
  "settings.json",
  "models.json",
  "auth.json",
];

/**
 * Each agent's own settings files, by the path they end with: a project's
 * folder holds them for that project, your home folder for every project
 * (`~/.claude/settings.json`). The first of each is where the snippet goes
 * (opencode: the plugin file, then its folder of yours); pi's are its
 * project's `.pi/settings.json` and its agent dir's `settings.json` (read by
 * src/integrations/pi/trust-store.ts). The last ones are files an agent reads
 * as its configuration by their name wherever they lie: Claude Code's
 * `.worktreeinclude` (the ignored files it copies into a new worktree),
 * Gemini CLI's `.env` (the nearest one from the working folder up, and
 * `~/.env`, become its environment and its tools') and `.geminiignore`.
 * `export --hooks` says where from these, and `export --out` never writes a
 * prompt over one of them.
 */
export const SETTINGS_FILES: Readonly<Record<ToolAgent | "pi", readonly string[]>> = {
  "claude-code": [
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude.json",
    ".mcp.json",
    ".worktreeinclude",
  ],
  codex: [".codex/config.toml", ".codex/hooks.json"],
  "gemini-cli": [GEMINI_SETTINGS, ".env", ".geminiignore"],
  opencode: [
    ".opencode/plugins/sysprompt.js",
    ".config/opencode/plugins/sysprompt.js",
    "opencode.json",
    "opencode.jsonc",
  ],
  pi: [".pi/settings.json", ...PI_AGENT_CONFIG_FILES.map((name) => `.pi/agent/${name}`)],
};
