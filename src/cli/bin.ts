#!/usr/bin/env node
import { run } from "./main.js";

// No top-level await: the published CLI is this file bundled as CommonJS
// (see scripts/bundle-cli.mjs), which starts faster than a tree of ES modules.
run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
  isTTY: process.stdout.isTTY === true,
}).then((code) => {
  process.exitCode = code;
});
