import { createRequire } from "node:module";
import type Handlebars from "handlebars";

// Where the engine gets Handlebars from: the runtime (helpers, partials,
// running templates) at once, the compiler (parser, code generator) on first
// use, since it costs about as much again to load. The CLI bundle
// (scripts/bundle-cli.mjs) replaces this file with one whose plain `require`
// calls the bundler follows, so that the runtime and the compiler come from
// the same copy of Handlebars inside the bundle.

const require = createRequire(import.meta.url);

/** The Handlebars runtime. */
export function loadRuntime(): typeof Handlebars {
  return require("handlebars/runtime") as typeof Handlebars;
}

/** The whole of Handlebars, compiler included. */
export function loadCompiler(): typeof Handlebars {
  return require("handlebars") as typeof Handlebars;
}
