/**
 * Waits until `check()` holds. File-system events and the renders they start
 * take milliseconds, but a loaded CI machine can delay them by seconds; 10 s
 * is far beyond that and still fails a hung test quickly.
 */
export async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A pause long enough for the file system to report an event that is not
 * coming (after an abort) — the debounce (100 ms) plus a render, twice over.
 */
export const QUIET_MS = 500;
