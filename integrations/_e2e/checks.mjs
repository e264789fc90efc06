// The report every end-to-end script prints: one numbered line per check, `ok` or `FAIL` with
// what was found, and a closing line `N passed, N failed`. A plain script needs no test runner
// for a suite of sequential agent runs that share one fake model.

/** A fresh report: `check(name, ok, detail)` prints a line; `finish(what)` prints the total. */
export function createChecks() {
  const failures = [];
  let passed = 0;
  const check = (name, ok, detail = "") => {
    const n = String(passed + failures.length + 1).padStart(3);
    if (ok) {
      passed++;
      console.log(`ok   ${n} ${name}`);
      return;
    }
    failures.push(name);
    console.log(`FAIL ${n} ${name}`);
    if (detail) console.log(`      ${String(detail).slice(0, 3000).replaceAll("\n", "\n      ")}`);
  };
  /** Prints the closing line and ends the process: exit 1 when a check failed. */
  const finish = (what = "") => {
    console.log(`\n${what ? `${what}: ` : ""}${passed} passed, ${failures.length} failed`);
    if (failures.length > 0) console.log(`failed:\n  ${failures.join("\n  ")}`);
    process.exit(failures.length === 0 ? 0 : 1);
  };
  return { check, finish, failures, passed: () => passed };
}

/** How many times `part` occurs in `text`. */
export const count = (text, part) => text.split(part).length - 1;
