// What `npm run bench` was asked to do, from its arguments (bench/run.mjs).

/**
 * @typedef {{ name: string, slow?: boolean }} Suite
 * @typedef {{ suites: Suite[], partial: boolean, write: boolean }} Plan
 */

/**
 * The suites to run and whether bench/RESULTS.md is rewritten. The file is the
 * one table of every row: only a run of every suite replaces it, so `--only`
 * and `--quick` print their rows and leave it as it is (a partial table there
 * would drop every row it did not measure). `--no-write` never writes.
 * Throws, with the suite names, for an `--only` that names no suite.
 *
 * @param {readonly string[]} args
 * @param {readonly Suite[]} suites
 * @param {{ BENCH_TREE?: string }} env
 * @returns {Plan}
 */
export function plan(args, suites, env = {}) {
  const at = args.indexOf("--only");
  const only = at === -1 ? undefined : args[at + 1];
  const names = suites.map((s) => s.name);
  if (at !== -1 && (only === undefined || !names.includes(only))) {
    throw new Error(
      `--only needs one of ${names.join(", ")}${only === undefined ? "" : `; there is no suite "${only}"`}`,
    );
  }
  const quick = args.includes("--quick") || env.BENCH_TREE === "0";
  const chosen = suites.filter((s) => (only ? s.name === only : !(quick && s.slow)));
  const partial = chosen.length < suites.length;
  return { suites: chosen, partial, write: !partial && !args.includes("--no-write") };
}

/**
 * What a run does with its rows: each skipped row is named on stderr with its
 * reason, and a run with a skipped row leaves bench/RESULTS.md as it is (a
 * table of dashes there would replace real figures), unless `--write-skipped`
 * says to write it anyway.
 *
 * @param {readonly { id: string, skipped?: string }[]} rows
 * @param {Plan} chosen
 * @param {readonly string[]} args
 * @returns {{ write: boolean, messages: string[] }}
 */
export function afterRun(rows, chosen, args) {
  const skipped = rows.filter((r) => r.skipped);
  const messages = skipped.map((r) => `bench: skipped ${r.id}: ${r.skipped}`);
  const write = chosen.write && (skipped.length === 0 || args.includes("--write-skipped"));
  if (chosen.write && !write) {
    messages.push(
      `bench: ${skipped.length} ${skipped.length === 1 ? "row was" : "rows were"} skipped, so bench/RESULTS.md is left as it is; \`npm run bench -- --write-skipped\` writes it anyway`,
    );
  }
  return { write, messages };
}
