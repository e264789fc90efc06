// The user-turn elements sysprompt escapes in a repository's text (USER_TURN_ELEMENTS in
// src/_prompt-text.ts) are claims about other programs: that Claude Code and Codex write these
// elements in the user's turn. This checks each claim against the installed agent's own code
// (Claude Code's binary bundles its JavaScript; Codex's Rust binary holds the tags as string
// literals), so a new pinned version that renames or drops one fails here, not in a prompt.
// Run after `npm ci` here (no network, no agent started): `node host-elements.mjs`.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createChecks } from "../_e2e/checks.mjs";
import { HERE, installedVersions, REPO } from "./harness.mjs";

const { HOST_ELEMENTS, USER_TURN_ELEMENTS } = await import(
  join(REPO, "dist", "src", "_prompt-text.js")
);

const MODULES = join(HERE, "node_modules");
const BINARIES = {
  "claude-code": join(MODULES, "@anthropic-ai/claude-code-linux-x64/claude"),
  codex: join(MODULES, "@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"),
};

// Where each element was seen, and as what: the tag itself, or (Claude Code's
// `local-command-caveat`, built from a constant) the quoted name.
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
};

const { check, finish } = createChecks();
const versions = installedVersions();
const code = Object.fromEntries(
  Object.entries(BINARIES).map(([agent, path]) => [agent, readFileSync(path)]),
);
check(
  "every user-turn element has a place it was seen",
  USER_TURN_ELEMENTS.every((e) => SEEN[e]),
  USER_TURN_ELEMENTS.filter((e) => !SEEN[e]).join(", "),
);
for (const element of USER_TURN_ELEMENTS) {
  const [agent, spelling] = SEEN[element] ?? [];
  if (!agent) continue;
  check(
    `${element}: in ${agent} ${versions[agent]}'s code as ${spelling}, and a host element`,
    code[agent].includes(spelling) && HOST_ELEMENTS.includes(element),
  );
}
finish("host elements");
