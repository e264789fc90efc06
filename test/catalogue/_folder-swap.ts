import { renameSync, symlinkSync } from "node:fs";
import type * as Io from "../../src/_io.js";

/**
 * Folder swaps armed by a test: when the listing opens the folder named (its `opendirSync`, by
 * the path it notes), the folder is renamed aside and a link to the target put in its place,
 * once. A race loop is flaky; this makes the swap at the one point it matters.
 */
export const swaps = new Map<string, string>();

/** `src/_io.js` with its `opendirSync` making the armed swaps; for a `vi.mock` factory. */
export function swappingIo(actual: typeof Io): typeof Io {
  return {
    ...actual,
    opendirSync: (...args: Parameters<typeof actual.opendirSync>) => {
      const named = args[2] ?? String(args[0]);
      const target = swaps.get(named);
      if (target !== undefined) {
        swaps.delete(named);
        renameSync(named, `${named}.real`);
        symlinkSync(target, named);
      }
      return actual.opendirSync(...args);
    },
  };
}
