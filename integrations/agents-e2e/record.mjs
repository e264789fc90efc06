#!/usr/bin/env node
// Keeping up with the agents: runs each agent the way run.mjs does and records what it sends
// (the tools it offers per model and mode, the instruction files it loads itself, where the
// system prompt lands), then prints what changed against record.json, the record of the
// versions pinned in package.json.
//
//   npm run agents:record                      the installed (pinned) versions against record.json
//   npm run agents:record -- --latest          each agent's newest version from the npm registry
//   npm run agents:record -- codex@0.172.0 opencode@latest   given versions (the others pinned)
//   npm run agents:record -- --write           rewrite record.json (after a reviewed update)
//
// Other versions are installed (outside the network namespace: it needs the registry) into a
// temporary folder, never into this one. Exit code 0 when nothing changed, 1 when something did.

import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeModel } from "../_e2e/fake-model.mjs";
import { deferredTools, offeredTools, systemParts } from "./extract.mjs";
import { HERE, inLoopbackNamespace, installedVersions } from "./harness.mjs";
import { AGENTS, createLab, session, TOOL_SET_CASES } from "./lab.mjs";

const RECORD = join(HERE, "record.json");
/** The npm package of each agent (opencode: its Linux x64 package, as in package.json). */
const PACKAGES = {
  "claude-code": "@anthropic-ai/claude-code",
  codex: "@openai/codex",
  "gemini-cli": "@google/gemini-cli",
  opencode: "opencode-linux-x64",
};
/** Every instruction file of the fixtures, by its marker text. */
const MARKERS = {
  "all-files": {
    "AGENTS.md": "E2E-AGENTS-MD",
    "CLAUDE.md (says @AGENTS.md)": "E2E-CLAUDE-MD",
    "GEMINI.md": "E2E-GEMINI-MD",
    ".cursor/rules/x.mdc": "E2E-CURSOR-RULE",
    "pkg/sub/AGENTS.md": "E2E-NESTED-AGENTS",
  },
  "side-by-side": {
    "AGENTS.md": "E2E-SIDE-AGENTS",
    "CLAUDE.md": "E2E-SIDE-CLAUDE",
    "GEMINI.md": "E2E-SIDE-GEMINI",
  },
};

const args = process.argv.slice(2);

/** Outside the namespace: installs the versions asked for, then runs this script inside it. */
function prepare() {
  if (process.env.AGENTS_E2E_NETNS === "1" || process.env.AGENTS_E2E_MODULES) return;
  const wanted = args.filter((a) => a.includes("@") && !a.startsWith("--"));
  if (args.includes("--latest")) {
    for (const agent of AGENTS)
      if (!wanted.some((w) => w.startsWith(`${agent}@`))) wanted.push(`${agent}@latest`);
  }
  if (wanted.length === 0) return;
  const dir = mkdtempSync(join(tmpdir(), "agents-record-"));
  const specs = AGENTS.map((agent) => {
    const given = wanted.find((w) => w.startsWith(`${agent}@`));
    const version = given ? given.slice(agent.length + 1) : installedVersions()[agent];
    return `${PACKAGES[agent]}@${version}`;
  });
  console.log(`installing ${specs.join(" ")} into ${dir}`);
  cpSync(join(HERE, "package.json"), join(dir, "package.json"));
  const install = spawnSync(
    "npm",
    ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", ...specs],
    {
      cwd: dir,
      stdio: "inherit",
    },
  );
  if (install.status !== 0) {
    console.error("agents:record: npm install failed");
    process.exit(2);
  }
  process.env.AGENTS_E2E_MODULES = join(dir, "node_modules");
}

/** What one agent sends, as the record keeps it. */
async function recordAgent(fake, lab, agent, modules) {
  const out = { version: installedVersions(modules)[agent], loadsItself: {}, tools: {} };
  // The agent's own prompt: which of the fixture's files it sends itself.
  for (const [fixture, markers] of Object.entries(MARKERS)) {
    const { turns } = await session(fake, agent, {
      cwd: lab.project(fixture),
      home: lab.home(),
      modules,
      label: `own prompt, ${fixture}`,
    });
    const text = turns[0] ? JSON.stringify(turns[0].body) : "";
    out.loadsItself[fixture] = Object.entries(markers)
      .filter(([, marker]) => text.includes(marker))
      .map(([file]) => file);
  }
  // The exported prompt: where it lands, and the tools of the default model or mode.
  const cwd = lab.project("all-files");
  const homeDir = lab.home();
  const exported = lab.exportFor(agent, cwd, homeDir);
  const { turns, requests } = await session(fake, agent, {
    cwd,
    home: homeDir,
    promptFile: exported.file,
    modules,
    label: "exported prompt",
  });
  const body = turns[0]?.body;
  const system = systemParts(body);
  const text = exported.text.replace(/\n$/, "");
  const at = system.texts.findIndex((t) => t.startsWith(text));
  out.prompt = {
    where: system.where,
    part: at === -1 ? "not found" : `${at + 1} of ${system.texts.length}`,
    followedBy: at === -1 ? "" : (system.texts[at].slice(text.length).trim().split("\n")[0] ?? ""),
  };
  out.requests = requests.map(
    (r) => `${r.method} ${r.url.split("?")[0]}${offeredTools(r.body).length > 0 ? " (turn)" : ""}`,
  );
  out.tools.default = offeredTools(body);
  const deferred = deferredTools(body);
  if (deferred.length > 0) out.tools.deferred = deferred;
  for (const c of TOOL_SET_CASES.filter((c) => c.agent === agent)) {
    const { turns: t } = await session(fake, agent, {
      cwd: lab.project("all-files"),
      home: lab.home(),
      modules,
      ...(c.model ? { model: c.model } : {}),
      ...(c.mode ? { mode: c.mode } : {}),
      label: c.args.join(" "),
    });
    out.tools[c.args.join(" ")] = t[0] ? offeredTools(t[0].body) : [];
  }
  return out;
}

/** The differences of two records, as lines. */
function changes(before, after, path = []) {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const label = path.join(" › ");
  if (Array.isArray(before) && Array.isArray(after)) {
    const added = after.filter((x) => !before.includes(x));
    const removed = before.filter((x) => !after.includes(x));
    const parts = [];
    if (added.length) parts.push(`+ ${added.join(", ")}`);
    if (removed.length) parts.push(`- ${removed.join(", ")}`);
    if (!parts.length) parts.push("same items, new order");
    return [`${label}: ${parts.join("; ")}`];
  }
  const isObject = (x) => x && typeof x === "object" && !Array.isArray(x);
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => changes(before[k], after[k], [...path, k]));
  }
  return [`${label}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`];
}

prepare();
inLoopbackNamespace();
const modules = process.env.AGENTS_E2E_MODULES;
const fake = await startFakeModel();
const lab = createLab();
const now = {};
try {
  for (const agent of AGENTS) now[agent] = await recordAgent(fake, lab, agent, modules);
} finally {
  await fake.close();
  lab.cleanup();
  if (modules?.startsWith(tmpdir())) rmSync(join(modules, ".."), { recursive: true, force: true });
}
const before = existsSync(RECORD) ? JSON.parse(readFileSync(RECORD, "utf8")) : {};
const lines = changes(before, now);
if (args.includes("--write")) {
  writeFileSync(RECORD, `${JSON.stringify(now, null, 2)}\n`);
  console.log(`wrote ${RECORD}`);
}
console.log(
  lines.length === 0 ? "agents:record: nothing changed against record.json" : lines.join("\n"),
);
process.exit(lines.length === 0 || args.includes("--write") ? 0 : 1);
