#!/usr/bin/env node
// The `sysprompt` command (package.json's `bin`: the shell runs it, hence the
// hashbang; the build makes it executable). It runs the CLI bundle beside it (`bundle.cjs`,
// one CommonJS file made by scripts/bundle-cli.mjs) through V8's code cache
// (`bundle.cjs.cache`, made at build time by running the bundle once), so a
// start neither resolves a tree of modules nor parses and compiles the code it
// runs: Node 20 has no module compile cache of its own (module.enableCompileCache
// came in 22.1). A cache that this Node or V8 refuses only costs speed.
import fs = require("node:fs");
import nodeModule = require("node:module");
import path = require("node:path");
import vm = require("node:vm");

const BUNDLE = path.join(__dirname, "bundle.cjs");
const CACHE = `${BUNDLE}.cache`;
/**
 * `sysprompt hook AGENT [--untrusted]`, which an agent runs on every tool call, has a bundle
 * of its own (hook.cjs, from hook-bin.ts) with a code cache of its own: it loads
 * no command parser and none of the other commands. Any other command line,
 * `hook --help` included, runs the CLI bundle.
 */
const HOOK_BUNDLE = path.join(__dirname, "hook.cjs");
/**
 * The hook's full path (src/hook/full.ts), loaded by hook.cjs only when its
 * quick answer cannot say "nothing new": config, presets, rules and the
 * on-touch loading, with a code cache of their own.
 */
const HOOK_FULL_BUNDLE = path.join(__dirname, "hook-full.cjs");

function chosenBundle(argv: readonly string[]): string {
  // `hook AGENT` and `hook AGENT --untrusted` (what `export --untrusted --hooks` prints: rev107a F1).
  const flags = argv.length === 4 || (argv.length === 5 && argv[4] === "--untrusted");
  return flags && argv[2] === "hook" && /^[a-z][a-z-]*$/.test(argv[3] ?? "") ? HOOK_BUNDLE : BUNDLE;
}

type ModuleFunction = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

/**
 * The whole of the open file `fd` in `buffer` (a new one when it does not fit),
 * from offset 0; undefined when the file changed size while read.
 */
function readWhole(fd: number, buffer?: Buffer): Buffer | undefined {
  const size = fs.fstatSync(fd).size;
  const into =
    buffer !== undefined && buffer.length >= size ? buffer : Buffer.allocUnsafeSlow(size);
  let at = 0;
  while (at < size) {
    const got = fs.readSync(fd, into, at, size - at, at);
    if (got === 0) return undefined;
    at += got;
  }
  return into.subarray(0, size);
}

/**
 * The bundle, a CommonJS module function, compiled with the cached data when `useCache`.
 *
 * Both files go through one buffer: the source is copied out of it as a string,
 * then the cache is read over it. A start touches each page of memory it uses
 * once, and on a virtual machine a first touch costs some 10-20 us: a second
 * buffer of 750 KB was some 180 of them. The source is decoded as Latin-1, which
 * is UTF-8 for the ASCII the build checks the bundles are: no decoding pass and
 * no decoder's buffer (another 190 pages).
 */
function compileBundle(useCache = true, bundle = BUNDLE): vm.Script {
  const fd = fs.openSync(bundle, "r");
  let buffer: Buffer | undefined;
  let source: string;
  try {
    buffer = readWhole(fd);
    source = buffer === undefined ? fs.readFileSync(bundle, "utf8") : buffer.toString("latin1");
  } finally {
    fs.closeSync(fd);
  }
  let cachedData: Buffer | undefined;
  if (useCache) {
    try {
      const cacheFd = fs.openSync(`${bundle}.cache`, "r");
      try {
        cachedData = readWhole(cacheFd, buffer);
      } finally {
        fs.closeSync(cacheFd);
      }
    } catch {
      // No cache built: compile from source.
    }
  }
  // The file is the module function already (scripts/bundle-cli.mjs writes the
  // wrapper Node puts around a CommonJS module): compiled as read, with no
  // second copy of 800 KB of source made by wrapping it here.
  return new vm.Script(source, { filename: bundle, ...(cachedData ? { cachedData } : {}) });
}

/** Runs the compiled bundle as the module `bundle`; returns its exports. */
function runBundle(script: vm.Script, bundle = BUNDLE): unknown {
  const run = script.runInThisContext() as ModuleFunction;
  const module = { exports: {} };
  run.call(
    module.exports,
    module.exports,
    nodeModule.createRequire(bundle),
    module,
    bundle,
    __dirname,
  );
  return module.exports;
}

if (require.main === module) {
  const bundle = chosenBundle(process.argv);
  runBundle(compileBundle(true, bundle), bundle);
}

export = { compileBundle, runBundle, chosenBundle, CACHE, HOOK_BUNDLE, HOOK_FULL_BUNDLE };
