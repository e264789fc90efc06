// `npm run build` step: the published CLI as one CommonJS module (its function, wrapped),
// dist/src/cli/bundle.cjs, started by dist/src/cli/sysprompt.cjs (src/cli/sysprompt.cts)
// with a V8 code cache made here by running it once.
//
// Why: a `sysprompt render` spent more time resolving, reading and compiling
// some sixty ES modules than rendering. The library files in dist/src stay as
// they are for the API; only the command is bundled. Each module's
// import.meta.url is still its own file's (the builtin prompts, the build-time
// cache and the serve page are found from it), computed from where the bundle is.
//
// Kept out of the bundle (loaded from node_modules when needed, as before):
// yaml and diff, which a render on builtin templates never loads, and
// source-map (the Handlebars compiler's optional dependency). `ignore` is
// bundled: a tree render over nearly any repository loads it.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI_DIR = join(ROOT, "dist", "src", "cli");
const OUT = join(CLI_DIR, "bundle.cjs");
const HOOK_OUT = join(CLI_DIR, "hook.cjs");
const HOOK_FULL_OUT = join(CLI_DIR, "hook-full.cjs");

/** The engine's Handlebars loader, with requires the bundler follows (see src/engine/_handlebars.ts). */
const handlebarsInBundle = `
export function loadRuntime() { return require("handlebars/runtime"); }
export function loadCompiler() { return require("handlebars"); }
`;

/**
 * The never-shown reading's HTML tree builder, loaded on first use (see
 * src/sections/_parse5.ts): the bundler makes a required ES module one it
 * starts only when the require runs.
 */
const parse5InBundle = `
let loaded;
export function loadParse5() { return (loaded ??= require("parse5")); }
`;

/**
 * commander requires child_process at load (for subcommands that are separate
 * executables, which sysprompt has none of); loading it pulls in net, dgram
 * and streams. This stands in for it until something is used.
 */
const lazyChildProcess = `
let loaded;
module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require("node:child_process"))[key] });
`;

/**
 * In hook.cjs, the hook's full path (src/hook/full.ts, imported by run.ts only
 * when the quick answer cannot say "nothing new") is hook-full.cjs, run
 * through the loader with its own code cache: the quick path's bundle stays
 * small, and its code cache holds only what it runs.
 */
const hookFullFromLoader = `
const loader = require("./sysprompt.cjs");
module.exports = loader.runBundle(loader.compileBundle(true, loader.HOOK_FULL_BUNDLE), loader.HOOK_FULL_BUNDLE);
`;

/** The head of the wrapper Node puts around a CommonJS module; sysprompt.cjs calls the function. */
const MODULE_WRAPPER = "(function (exports, require, module, __filename, __dirname) {";

/** `text` with its one `from` replaced by `to`; a build whose sources moved on fails here. */
function inline(text, from, to) {
  if (!text.includes(from))
    throw new Error(`bundle-cli: ${from} not found; update scripts/bundle-cli.mjs`);
  return text.replace(from, to);
}

/** The build's plugin; `fullApart`: the hook's full path is hook-full.cjs, not bundled in. */
const pluginFor = (fullApart) => ({
  name: "sysprompt-cli",
  setup(b) {
    if (fullApart) {
      b.onResolve({ filter: /^\.\/full\.js$/ }, (args) =>
        /[\\/]dist[\\/]src[\\/]hook[\\/]run\.js$/.test(args.importer)
          ? { path: "hook-full", namespace: "sysprompt-cli" }
          : undefined,
      );
      b.onResolve({ filter: /^\.\/sysprompt\.cjs$/ }, () => ({
        path: "./sysprompt.cjs",
        external: true,
      }));
    }
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/]engine[\\/]_handlebars\.js$/ }, () => ({
      contents: handlebarsInBundle,
      loader: "js",
    }));
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/]sections[\\/]_parse5\.js$/ }, () => ({
      contents: parse5InBundle,
      loader: "js",
    }));
    // Every other module of ours: import.meta.url as it would be for that file.
    b.onLoad({ filter: /[\\/]dist[\\/](src|helpers)[\\/].*\.js$/ }, async (args) => {
      let text = await readFile(args.path, "utf8");
      // The tree's ignore rules: `ignore` goes into the bundle (and its code
      // cache), loaded still only when a walk meets an ignore file.
      if (/[\\/]_gitignore\.js$/.test(args.path)) {
        text = inline(text, 'createRequire(import.meta.url)("ignore")', 'require("ignore")');
      }
      // The builtin prompts' compiled specs: code in the bundle and its code
      // cache, instead of a module compiled on every start.
      if (/[\\/]locate[\\/]builtin-cache\.js$/.test(args.path)) {
        text = inline(
          text,
          'createRequire(import.meta.url)("../../builtin-templates.cjs")',
          'require("../../builtin-templates.cjs")',
        );
      }
      const rel = relative(CLI_DIR, args.path).split("\\").join("/");
      return {
        contents: text.replaceAll("import.meta.url", `__moduleUrl(${JSON.stringify(rel)})`),
        loader: "js",
      };
    });
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: "lazy-child-process", namespace: "sysprompt-cli" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "sysprompt-cli" }, (args) => ({
      contents: args.path === "hook-full" ? hookFullFromLoader : lazyChildProcess,
      loader: "js",
      resolveDir: ROOT,
    }));
  },
});

/** Bundles `entry` (a file of dist/src/cli) into `out`: one ASCII CommonJS file, mode 0644. */
async function bundle(entry, out, { fullApart = false } = {}) {
  await build({
    entryPoints: [join(CLI_DIR, entry)],
    outfile: out,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["yaml", "diff", "source-map"],
    banner: {
      js: 'var __bundle_url = require("node:url").pathToFileURL(__filename).href; function __moduleUrl(rel) { return new URL(rel, __bundle_url).href; }',
    },
    plugins: [pluginFor(fullApart)],
    // import() of a module left out becomes require(): the loader runs the bundle without an ES module loader.
    supported: { "dynamic-import": false },
    legalComments: "none",
    // Smaller to install and to read at start; names are kept for readable stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "warning",
  });
  // The loader wraps the bundle in a function on its first line: no hashbang there.
  const bundled = readFileSync(out, "utf8").replace(/^#!.*\n/, "");
  // esbuild writes strings as ASCII escapes, but not every literal (a regex's
  // "…"). One character past ASCII makes V8 hold the whole source as two-byte
  // text, decoded from UTF-8 on every start: write such a character as \u2026.
  const wide = /[\u0080-\uffff]/.exec(bundled);
  if (wide) {
    const around = bundled.slice(Math.max(0, wide.index - 60), wide.index + 20);
    throw new Error(`${out} is not ASCII: ${JSON.stringify(wide[0])} in ${JSON.stringify(around)}`);
  }
  // The file is the module function that sysprompt.cjs compiles as it is: the
  // wrapper Node puts around a CommonJS module, on the first line (wrapping it
  // at start made a second copy of the source in memory, some 200 pages).
  writeFileSync(out, `${MODULE_WRAPPER}${bundled}\n})`);
  // npm keeps a file's mode in the tarball, and the shell runs the bin: the
  // loader is the one executable; the bundle (esbuild marked it, for the hashbang
  // of bin.ts) is only ever read by it.
  chmodSync(out, 0o644);
  if (readFileSync(out, "utf8").includes("import(")) {
    throw new Error(
      `${out} still has a dynamic import(); sysprompt.cjs runs it without an ES module loader`,
    );
  }
}

await bundle("bin.js", OUT);
// `sysprompt hook AGENT` alone (src/cli/hook-bin.ts): an agent starts it on every tool call.
await bundle("hook-bin.js", HOOK_OUT, { fullApart: true });
// Its full path, loaded by hook.cjs when needed (the entry is a file of dist/src/hook).
await bundle("../hook/full.js", HOOK_FULL_OUT);
chmodSync(join(CLI_DIR, "sysprompt.cjs"), 0o755);

// The code cache: run `render` once on a tiny project in a fresh process and
// keep what V8 compiled by then.
const scratch = mkdtempSync(join(tmpdir(), "sysprompt-code-cache-"));
try {
  const project = join(scratch, "project");
  mkdirSync(project);
  mkdirSync(join(scratch, "agent"));
  writeFileSync(join(project, "AGENTS.md"), "# Project\n\nRun the tests before you commit.\n");
  // A small tree, so the walk, the listing cache, the ignore rules and the layout are compiled too.
  mkdirSync(join(project, "src", "lib", "deep", "deeper"), { recursive: true });
  writeFileSync(join(project, "src", "lib", "deep", "deeper", "AGENTS.md"), "# Deep\n");
  writeFileSync(join(project, "src", "index.ts"), "export {};\n");
  writeFileSync(join(project, "src", "lib", "deep", "deeper", "a.ts"), "export {};\n");
  mkdirSync(join(project, "other"));
  writeFileSync(join(project, "other", "b.ts"), "export {};\n");
  writeFileSync(join(project, ".gitignore"), "dist/\n*.log\n");
  const train = `
    const loader = require(${JSON.stringify(join(CLI_DIR, "sysprompt.cjs"))});
    const fs = require("node:fs");
    const script = loader.compileBundle(false);
    process.argv = [process.argv[0], "sysprompt", "render", "--cwd", ${JSON.stringify(project)},
      "--agent-dir", ${JSON.stringify(join(scratch, "agent"))}, "--deadline", "2000", "--tree"];
    // The CLI ends with process.exit once its output is out: "exit" is the last word.
    process.once("exit", () => fs.writeFileSync(loader.CACHE, script.createCachedData()));
    loader.runBundle(script);
  `;
  // A cache left from an earlier build would be refused by V8 for its changed source.
  rmSync(`${OUT}.cache`, { force: true });
  const out = spawnSync(process.execPath, ["-e", train], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (out.status !== 0 || !existsSync(`${OUT}.cache`)) {
    throw new Error(`training the code cache failed (status ${out.status}): ${out.stderr}`);
  }

  // The hook's caches. hook.cjs: the call it makes most, one that brings nothing new, answered
  // quickly. hook-full.cjs: a call that looks in a folder the session has not seen, with the
  // session's snapshot (the first call of a session, which takes the snapshot, is not kept: its
  // config and preset code would double the cache, in a tarball with a size budget).
  const read = (...path) =>
    JSON.stringify({
      session_id: "code-cache",
      cwd: project,
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(project, ...path) },
    });
  const deep = read("src", "lib", "deep", "deeper", "a.ts");
  const hookEnv = { ...process.env, XDG_CACHE_HOME: join(scratch, "cache") };
  const hookTrain = (keep) => `
    const loader = require(${JSON.stringify(join(CLI_DIR, "sysprompt.cjs"))});
    const fs = require("node:fs");
    const compile = loader.compileBundle;
    // Every bundle this run compiles, compiled without a cache, its cache written at exit when kept.
    loader.compileBundle = (_useCache, bundle) => {
      const script = compile(false, bundle);
      if (bundle === ${JSON.stringify(keep ?? "")}) {
        process.once("exit", () => fs.writeFileSync(bundle + ".cache", script.createCachedData()));
      }
      return script;
    };
    process.argv = [process.argv[0], "sysprompt", "hook", "claude-code"];
    loader.runBundle(loader.compileBundle(false, loader.HOOK_BUNDLE), loader.HOOK_BUNDLE);
  `;
  rmSync(`${HOOK_OUT}.cache`, { force: true });
  rmSync(`${HOOK_FULL_OUT}.cache`, { force: true });
  const calls = [
    [deep, undefined],
    [read("other", "b.ts"), HOOK_FULL_OUT],
    [deep, HOOK_OUT],
  ];
  for (const [input, keep] of calls) {
    const run = spawnSync(process.execPath, ["-e", hookTrain(keep)], {
      encoding: "utf8",
      input,
      env: hookEnv,
    });
    if (run.status !== 0 || run.stderr !== "" || (keep && !existsSync(`${keep}.cache`))) {
      throw new Error(
        `training the hook's code caches failed at ${keep} (status ${run.status}): ${run.stderr}`,
      );
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const size = (file) => `${Math.round(readFileSync(file).length / 1024)} KiB`;
console.log(`cli bundle: ${OUT} (${size(OUT)}, code cache ${size(`${OUT}.cache`)})`);
for (const out of [HOOK_OUT, HOOK_FULL_OUT]) {
  console.log(`hook bundle: ${out} (${size(out)}, code cache ${size(`${out}.cache`)})`);
}
