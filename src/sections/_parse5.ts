import * as parse5 from "parse5";

// Where the never-shown reading (html-reading.ts) gets its HTML tree builder
// from. The library loads parse5 with the module, as ES modules must. The CLI
// bundle (scripts/bundle-cli.mjs) replaces this file with one that loads it on
// first use: most renders read no markup from a repository, and parse5 with
// its character-reference tables cost every start some 9 ms and 30 M
// instructions.

/** parse5. */
export function loadParse5(): typeof parse5 {
  return parse5;
}
