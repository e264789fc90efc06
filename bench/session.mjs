// A session re-render with nothing changed: `createPromptSession()` rendering
// again when no file moved, vs a first render (or vs renderPrepared), and its
// peak memory. Not measured yet: this file is the hook. Replace the body of
// sessionSuite with the measurement and return rows in the shape of
// bench/_lib.mjs (id "session"); run.mjs already prints and writes them.
export function sessionSuite() {
  return [
    {
      id: "session",
      what: "session re-render with nothing changed",
      skipped: "not measured yet (hook: bench/session.mjs)",
    },
  ];
}
