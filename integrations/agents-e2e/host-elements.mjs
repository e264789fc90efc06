// The user-turn and developer elements sysprompt escapes in a repository's text
// (USER_TURN_ELEMENTS and DEVELOPER_ELEMENTS in src/_prompt-text.ts) are claims about other
// programs: that Claude Code and Codex write these elements in the user's turn or in their own
// instructions to the model. This checks each claim against the installed agent's own code
// (Claude Code's binary bundles its JavaScript; Codex's Rust binary holds the tags as string
// literals), so a new pinned version that renames or drops one fails here, not in a prompt.
// Run after `npm ci` here (no network, no agent started): `node host-elements.mjs`.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createChecks } from "../_e2e/checks.mjs";
import { HERE, installedVersions, REPO } from "./harness.mjs";

const { DEVELOPER_ELEMENTS, escapeWrapperTags, HOST_ELEMENTS, USER_TURN_ELEMENTS } = await import(
  join(REPO, "dist", "src", "_prompt-text.js")
);

const MODULES = join(HERE, "node_modules");
const BINARIES = {
  "claude-code": join(MODULES, "@anthropic-ai/claude-code-linux-x64/claude"),
  codex: join(MODULES, "@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"),
};

// Where each element was seen, and as what: the tag itself, or (Claude Code's
// `local-command-caveat`, built from a constant) the quoted name; Codex's
// `permissions` as `<permissions instructions>`, `codex_internal_context` as its closer
// (its opener has attributes), Claude Code's `cross-session-message` as its opener
// before its attribute.
const SEEN = {
  "command-name": ["claude-code", "<command-name>"],
  "command-message": ["claude-code", "<command-message>"],
  "command-args": ["claude-code", "<command-args>"],
  "local-command-stdout": ["claude-code", "<local-command-stdout>"],
  "local-command-stderr": ["claude-code", "<local-command-stderr>"],
  "local-command-caveat": ["claude-code", '"local-command-caveat"'],
  "bash-input": ["claude-code", "<bash-input>"],
  "bash-stdout": ["claude-code", "<bash-stdout>"],
  "bash-stderr": ["claude-code", "<bash-stderr>"],
  "user-prompt-submit-hook": ["claude-code", "<user-prompt-submit-hook>"],
  "task-notification": ["claude-code", "<task-notification>"],
  user_shell_command: ["codex", "<user_shell_command>"],
  turn_aborted: ["codex", "<turn_aborted>"],
  subagent_notification: ["codex", "<subagent_notification>"],
  // Review rev104c F1: the rest of what Claude Code itself neutralizes (its quoted names, in the
  // lists beside "fork-boilerplate"), and Codex's review result.
  ...Object.fromEntries(
    [
      "ide_selection",
      "ide_opened_file",
      "user-memory-input",
      "teammate-message",
      "agent-message",
      "channel",
      "mcp-resource-update",
      "mcp-polling-update",
      "fork-boilerplate",
      "forked-skill-launch",
      "bash-exit-code",
      "post-tool-use-hook",
      "terminal",
      "browser",
      "browser_instruction",
      "tick",
      "remote-review",
      "slack-ping",
      "slack-tag-message",
      "coordinator-relay",
      "fetched-web-content",
      "untrusted-widget-state",
      "artifact-type-instructions",
      "cowritten-artifact-html",
      "artifact-file-content",
      "artifact-origin-notes",
      "artifact-stored-declaration",
      "sandbox_violations",
      "persisted-output",
      "total_tokens",
    ].map((name) => [name, ["claude-code", `"${name}"`]]),
  ),
  user_action: ["codex", "<user_action>"],
  permissions: ["codex", "<permissions instructions></permissions instructions>"],
  // Its two words joined (and the singular), as a reader takes them (review rev102b F1).
  permissions_instructions: ["codex", "<permissions instructions></permissions instructions>"],
  permission_instructions: ["codex", "<permissions instructions></permissions instructions>"],
  collaboration_mode: ["codex", "<collaboration_mode></collaboration_mode>"],
  apps_instructions: ["codex", "<apps_instructions></apps_instructions>"],
  catalog_apps_instructions: ["codex", "<catalog_apps_instructions></catalog_apps_instructions>"],
  skills_instructions: ["codex", "<skills_instructions></skills_instructions>"],
  plugins_instructions: ["codex", "<plugins_instructions></plugins_instructions>"],
  environments_instructions: ["codex", "<environments_instructions></environments_instructions>"],
  recommended_plugins: ["codex", "<recommended_plugins></recommended_plugins>"],
  multi_agent_mode: ["codex", "<multi_agent_mode>"],
  multi_agent_role: ["codex", "<multi_agent_role></multi_agent_role>"],
  codex_internal_context: ["codex", "</codex_internal_context>"],
  model_switch: ["codex", "<model_switch></model_switch>"],
  model_instructions: ["codex", "<model_instructions></model_instructions>"],
  managed_developer_instructions: ["codex", "</managed_developer_instructions>"],
  persistent_mode: ["codex", "<persistent_mode></persistent_mode>"],
  realtime_conversation: ["codex", "<realtime_conversation></realtime_conversation>"],
  context_window_reminder: ["codex", "<context_window_reminder>"],
  current_time_reminder: ["codex", "<current_time_reminder></current_time_reminder>"],
  image_resize_notice: ["codex", "<image_resize_notice></image_resize_notice>"],
  agent_message_board_notification: [
    "codex",
    "<agent_message_board_notification></agent_message_board_notification>",
  ],
  user_verification_notice: ["codex", "<user_verification_notice></user_verification_notice>"],
  tool_use_error: ["claude-code", "<tool_use_error>"],
  "cross-session-message": ["claude-code", "<cross-session-message from="],
  "new-diagnostics": ["claude-code", "<new-diagnostics>"],
};
const CHECKED = [...USER_TURN_ELEMENTS, ...DEVELOPER_ELEMENTS];

const { check, finish } = createChecks();
const versions = installedVersions();
const code = Object.fromEntries(
  Object.entries(BINARIES).map(([agent, path]) => [agent, readFileSync(path)]),
);
check(
  "every user-turn and developer element has a place it was seen",
  CHECKED.every((e) => SEEN[e]),
  CHECKED.filter((e) => !SEEN[e]).join(", "),
);
for (const element of CHECKED) {
  const [agent, spelling] = SEEN[element] ?? [];
  if (!agent) continue;
  check(
    `${element}: in ${agent} ${versions[agent]}'s code as ${spelling}, and a host element`,
    code[agent].includes(spelling) && HOST_ELEMENTS.includes(element),
  );
}

// Claude Code's own lists of the elements it neutralizes in text it did not write (review
// rev104c F1): the arrays of its tag module, beside `<name>="fork-boilerplate"`, each entry a
// quoted name, a constant of the module (`JB="teammate-message"`) or another such array spread.
// Every name there must be held by sysprompt's host elements (as a text's tag is read).
function claudeOwnElements(binary) {
  const text = binary.toString("latin1");
  const at = text.indexOf('="fork-boilerplate"');
  if (at === -1) return [];
  const end = text.indexOf("export{", at);
  const module = text.slice(Math.max(0, at - 200_000), end === -1 ? at + 2_000 : end);
  const constants = new Map();
  for (const m of module.matchAll(/(?<![\w$])([\w$]+)="([a-z][a-z0-9_-]*)"/g))
    constants.set(m[1], m[2]);
  const arrays = new Map();
  for (const m of module.matchAll(/(?<![\w$])([\w$]+)=\[([^\]]*)\]/g)) arrays.set(m[1], m[2]);
  const resolve = (body, depth = 0) =>
    body.split(",").flatMap((entry) => {
      const e = entry.trim();
      if (e.startsWith('"')) return [e.slice(1, -1)];
      if (e.startsWith("..."))
        return depth > 4 ? [] : resolve(arrays.get(e.slice(3)) ?? "", depth + 1);
      return constants.has(e) ? [constants.get(e)] : [];
    });
  const lists = [...arrays.values()].map((body) => resolve(body));
  // Its tag lists: those that hold a user-turn element (not its lists of CLI words).
  return [
    ...new Set(
      lists.filter((l) => l.includes("task-notification") || l.includes("ide_selection")).flat(),
    ),
  ];
}
const held = new Set(HOST_ELEMENTS);
const own = claudeOwnElements(code["claude-code"]);
check(
  `Claude Code ${versions["claude-code"]}'s own list of elements it neutralizes was read`,
  own.includes("ide_selection") && own.includes("mcp-resource-update") && own.includes("channel"),
  own.join(", "),
);
const loose = own.filter((name) => !escapeWrapperTags(`<${name}>`, held).startsWith("&lt;"));
check(
  "every element Claude Code neutralizes is held by the host elements",
  loose.length === 0,
  loose.join(", "),
);
finish("host elements");
