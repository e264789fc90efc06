// Budget fit: rendering under `maxPromptTokens`, shrinking sections until the
// prompt fits, vs the same render without a budget. Not measured yet: this
// file is the hook. Replace the body of budgetSuite with the measurement and
// return rows in the shape of bench/_lib.mjs (id "budget"); run.mjs already
// prints and writes them.
export function budgetSuite() {
  return [
    {
      id: "budget",
      what: "budget fit (maxPromptTokens)",
      skipped: "not measured yet (hook: bench/budget.mjs)",
    },
  ];
}
