import { renameSync, symlinkSync } from "node:fs";
import type * as Io from "../../src/_io.js";

/**
 * Folder swaps armed by a test: when the listing opens the folder named (its `opendirSync`, or
 * the one-call `readdirEntriesSync` of a small folder, by the path it notes), the folder is
 * renamed aside and a link to the target put in its place, once. A race loop is flaky; this
 * makes the swap at the one point it matters. A folder already held is still listed as it was;
 * what is opened by a path through it afterwards (its subfolders, its files) goes where the
 * link leads: the swap of a folder on the way (review rev92a F1-F4).
 */
export const swaps = new Map<string, string>();

/** Makes the swap armed for `named`, if any. */
function swap(named: string): void {
  const target = swaps.get(named);
  if (target === undefined) return;
  swaps.delete(named);
  renameSync(named, `${named}.real`);
  symlinkSync(target, named);
}

/** `src/_io.js` with its `opendirSync` and `readdirEntriesSync` making the armed swaps; for a `vi.mock` factory. */
export function swappingIo(actual: typeof Io): typeof Io {
  return {
    ...actual,
    opendirSync: (...args: Parameters<typeof actual.opendirSync>) => {
      swap(args[2] ?? String(args[0]));
      return actual.opendirSync(...args);
    },
    readdirEntriesSync: (...args: Parameters<typeof actual.readdirEntriesSync>) => {
      swap(args[1] ?? args[0]);
      return actual.readdirEntriesSync(...args);
    },
  };
}
