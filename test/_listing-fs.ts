import type * as Fs from "node:fs";
import type * as Fsp from "node:fs/promises";

// Cases about folders of very many entries count what sysprompt lists. Each
// mocks node:fs (and node:fs/promises) in its own `vi.mock` factory, which
// is hoisted above imports: the factory loads this module with `await
// import` and hands it the real module and what the case listens for. This
// module imports no node:fs of its own: a factory loading it would wait on
// itself. The folders such cases list are made with ./_big-folder.js.

/** What a case hears of folder listings. */
export interface ListingSpy {
  /** A folder handle opened (opendirSync), before any entry is taken. */
  opened?: (path: string) => void;
  /** One entry taken from a folder handle (called before the entry is returned). */
  entry?: (path: string) => void;
  /** A whole listing read (readdirSync, or readdir of node:fs/promises): mocked only when given. */
  whole?: (path: string, count: number) => void;
}

/** node:fs with opendirSync (and readdirSync when the spy hears whole listings) reporting to `spy`. */
export function spiedFs(fs: typeof Fs, spy: ListingSpy): typeof Fs {
  const opendirSync = ((...args: Parameters<typeof fs.opendirSync>) => {
    const dir = fs.opendirSync(...args);
    const path = String(args[0]);
    spy.opened?.(path);
    const readSync = dir.readSync.bind(dir);
    dir.readSync = () => {
      const entry = readSync();
      if (entry) spy.entry?.(path);
      return entry;
    };
    return dir;
  }) as typeof fs.opendirSync;
  const whole = spy.whole;
  const more: Partial<typeof Fs> = { opendirSync };
  if (whole) {
    more.readdirSync = ((...args: Parameters<typeof fs.readdirSync>) => {
      const names = fs.readdirSync(...args);
      whole(String(args[0]), names.length);
      return names;
    }) as typeof fs.readdirSync;
  }
  return { ...fs, ...more, default: { ...fs, ...more } } as typeof Fs;
}

/** node:fs/promises with readdir reporting each whole listing to `whole`. */
export function spiedFsp(
  fsp: typeof Fsp,
  whole: (path: string, count: number) => void,
): typeof Fsp {
  const readdir = (async (...args: Parameters<typeof fsp.readdir>) => {
    const names = await fsp.readdir(...args);
    whole(String(args[0]), names.length);
    return names;
  }) as typeof fsp.readdir;
  return { ...fsp, readdir, default: { ...fsp, readdir } } as typeof Fsp;
}

/** Spin (block the thread) for `ms` milliseconds: a slow disk, as a case sees it. */
export function spin(ms: number): void {
  const until = process.hrtime.bigint() + BigInt(Math.round(ms * 1e6));
  while (process.hrtime.bigint() < until);
}
