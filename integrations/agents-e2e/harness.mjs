// The runner: starts one of the four agents non-interactively against the fake model, with a
// private HOME, in a network namespace that has only loopback.
//
// `inLoopbackNamespace()` re-executes the calling script under `unshare -n` (root, or a user
// namespace that allows it) after `ip link set lo up`, so the script, the fake model it starts and
// every agent it runs share a network with nothing but 127.0.0.1: nothing leaves the machine,
// whatever an agent tries. Each agent's own switches for telemetry, update checks and model
// catalogues are set too, so that they fail (or are skipped) at once instead of timing out.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "../_e2e/spawn.mjs";

export const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(HERE, "../..");
const MODULES = join(HERE, "node_modules");

/** One agent run may take this long before it counts as hung; a run takes 2 to 10 s (opencode up to a minute on a loaded machine). */
export const AGENT_TIMEOUT_MS = Number(process.env.AGENTS_E2E_TIMEOUT_MS ?? 150_000);

/**
 * Re-executes this process under `unshare -n` unless it already runs there. Returns only inside
 * the namespace; outside it, exits with the inner run's exit code.
 */
export function inLoopbackNamespace() {
  if (process.env.AGENTS_E2E_NETNS === "1") return;
  const ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].find((p) => existsSync(p));
  if (!ip) {
    console.error("agents-e2e: `ip` (iproute2) is missing; install it (apt-get install iproute2)");
    process.exit(2);
  }
  const inner = spawnSync(
    "unshare",
    [
      "-n",
      "sh",
      "-c",
      `${ip} link set lo up && exec "$0" "$@"`,
      process.execPath,
      ...process.execArgv,
      ...process.argv.slice(1),
    ],
    { stdio: "inherit", env: { ...process.env, AGENTS_E2E_NETNS: "1" } },
  );
  if (inner.error || inner.status === null) {
    console.error(
      `agents-e2e: could not run in a network namespace (${inner.error?.message ?? inner.signal}); it needs root or user namespaces`,
    );
    process.exit(2);
  }
  process.exit(inner.status);
}

/** The versions installed in node_modules (what the lockfile pinned, or what record.mjs installed). */
export function installedVersions(modules = MODULES) {
  const v = (pkg) => JSON.parse(readFileSync(join(modules, pkg, "package.json"), "utf8")).version;
  return {
    "claude-code": v("@anthropic-ai/claude-code"),
    codex: v("@openai/codex"),
    "gemini-cli": v("@google/gemini-cli"),
    opencode: v("opencode-linux-x64"),
  };
}

/** The command that starts each agent, from the packages in `modules`. */
function command(agent, modules) {
  const bins = {
    "claude-code": [join(modules, "@anthropic-ai/claude-code-linux-x64/claude")],
    codex: [process.execPath, join(modules, "@openai/codex/bin/codex.js")],
    "gemini-cli": [process.execPath, join(modules, "@google/gemini-cli/bundle/gemini.js")],
    opencode: [join(modules, "opencode-linux-x64/bin/opencode")],
  };
  const cmd = bins[agent];
  if (!cmd) throw new Error(`unknown agent ${agent}`);
  const missing = cmd.find((p) => !existsSync(p));
  if (missing) throw new Error(`${missing} is missing; run \`npm ci\` in ${HERE}`);
  return cmd;
}

/** The environment every agent gets: a private HOME, nothing of ours, no telemetry, no updates. */
function baseEnv(home) {
  return {
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    USER: "e2e",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
    LANG: "C.UTF-8",
    TZ: "UTC",
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local/share"),
    XDG_STATE_HOME: join(home, ".local/state"),
  };
}

/**
 * Writes the agent's settings under `home` and returns its argument list and environment. `prompt`
 * is the exported prompt's path (or undefined: the agent's own prompt); `model` the model name it
 * asks the fake for; `mode` Gemini CLI's approval mode.
 */
function setup(agent, options) {
  const { home, cwd, port, promptFile, model, mode, message } = options;
  const base = `http://127.0.0.1:${port}`;
  const env = baseEnv(home);
  const write = (path, text) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  if (agent === "claude-code") {
    Object.assign(env, {
      ANTHROPIC_BASE_URL: base,
      ANTHROPIC_API_KEY: "e2e-key",
      CLAUDE_CONFIG_DIR: join(home, ".claude"),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_BUG_COMMAND: "1",
      CLAUDE_CODE_SKIP_PROMPT_HISTORY: "1",
    });
    const args = ["-p", message, "--model", model ?? "claude-sonnet-4-5"];
    if (promptFile) args.push("--system-prompt-file", promptFile);
    return { args, env };
  }
  if (agent === "codex") {
    const codexHome = join(home, ".codex");
    env.CODEX_HOME = codexHome;
    env.E2E_KEY = "e2e-key";
    const lines = [
      `model = "${model ?? "gpt-5.1-codex"}"`,
      `model_provider = "fake"`,
      "check_for_update_on_startup = false",
    ];
    const instructions = promptFile
      ? `model_instructions_file = ${JSON.stringify(promptFile)}`
      : "";
    // `instructionsAfterTable`: the line pasted below a [table] header, as a user might.
    if (instructions && !options.instructionsAfterTable) lines.push(instructions);
    lines.push(
      "",
      "[model_providers.fake]",
      'name = "fake"',
      `base_url = "${base}/v1"`,
      'wire_api = "responses"',
      'env_key = "E2E_KEY"',
      "request_max_retries = 0",
      "stream_max_retries = 0",
      ...(instructions && options.instructionsAfterTable ? [instructions] : []),
      "",
      "[analytics]",
      "enabled = false",
      "",
      "[otel]",
      'exporter = "none"',
      "",
    );
    write(join(codexHome, "config.toml"), lines.join("\n"));
    return {
      args: [
        "exec",
        "--skip-git-repo-check",
        "--sandbox",
        options.sandbox ?? "workspace-write",
        message,
      ],
      env,
    };
  }
  if (agent === "gemini-cli") {
    Object.assign(env, {
      GEMINI_API_KEY: "e2e-key",
      GOOGLE_GEMINI_BASE_URL: base,
      GEMINI_CLI_NO_RELAUNCH: "true",
      GEMINI_TELEMETRY_ENABLED: "false",
    });
    if (promptFile) env.GEMINI_SYSTEM_MD = promptFile;
    write(
      join(home, ".gemini/settings.json"),
      JSON.stringify(
        {
          security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: true } },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
        },
        null,
        2,
      ),
    );
    // `trust: false`: the folder is not trusted, as in a fresh checkout.
    if (options.trust !== false) {
      write(
        join(home, ".gemini/trustedFolders.json"),
        JSON.stringify({ [cwd]: "TRUST_FOLDER" }, null, 2),
      );
    }
    const args = ["-p", message, "--model", model ?? "gemini-2.5-pro"];
    if (mode) args.push("--approval-mode", mode);
    return { args, env };
  }
  if (agent === "opencode") {
    Object.assign(env, {
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_SHARE: "1",
    });
    const id = model ?? "fake-model";
    const gpt = /gpt/i.test(id);
    const config = {
      $schema: "https://opencode.ai/config.json",
      autoupdate: false,
      share: "disabled",
      model: `${gpt ? "openai" : "fake"}/${id}`,
      provider: gpt
        ? {
            openai: { options: { baseURL: `${base}/v1`, apiKey: "e2e-key" }, models: { [id]: {} } },
          }
        : {
            fake: {
              npm: "@ai-sdk/openai-compatible",
              name: "fake",
              options: { baseURL: `${base}/v1`, apiKey: "e2e-key" },
              models: { [id]: { name: "Fake model" } },
            },
          },
    };
    if (promptFile) config.agent = { build: { prompt: `{file:${promptFile}}` } };
    write(join(home, ".config/opencode/opencode.json"), JSON.stringify(config, null, 2));
    return { args: ["run", message], env };
  }
  throw new Error(`unknown agent ${agent}`);
}

/**
 * Runs one agent once in `cwd`. Resolves with `{ code, signal, stdout, stderr, ms }`; a run past
 * AGENT_TIMEOUT_MS is killed (signal SIGKILL).
 */
export function runAgent(agent, options) {
  const modules = options.modules ?? MODULES;
  const [bin, ...pre] = command(agent, modules);
  const { args, env } = setup(agent, { message: "say ok", ...options });
  // A check's own files beside the settings the runner wrote (hooks, plugins): `afterSetup(home)`.
  options.afterSetup?.(options.home);
  // The whole group: an agent's helpers (a shell, a language server) go with it.
  // `leadingArgs`: before the subcommand, as a printed command line puts them (`codex -c k=v`).
  const argv = [...pre, ...(options.leadingArgs ?? []), ...args, ...(options.extraArgs ?? [])];
  return runProcess(bin, argv, {
    cwd: options.cwd,
    env: { ...env, ...(options.env ?? {}) },
    timeoutMs: options.timeoutMs ?? AGENT_TIMEOUT_MS,
    group: true,
  });
}
