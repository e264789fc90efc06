import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contextKey } from "../../src/gather/context/touch-keys.js";
import {
  MAX_SESSION_KEYS,
  readSession,
  sessionLocation,
  writeSession,
} from "../../src/hook/state.js";
import { tempDir } from "../api/_helpers.js";

// What a hook session was given is kept as keys holding real paths, at
// most 2,048 of them, in a file a read takes as not ours past 4 MiB. A
// repository's paths can be 4,096 characters: 2,048 keys of folders 4,000
// characters deep made an 8 MB file, read back as a new session, so every
// call gave every file again (up to 2 MiB of instructions a call). The file
// is written to fit: the snapshot goes first, then the oldest keys.

describe("hostile repository: paths so long the session's file would pass its cap", () => {
  it("keeps the newest keys, read back, instead of starting afresh", () => {
    const base = tempDir();
    const where = { env: { XDG_CACHE_HOME: join(base, "cache") }, home: join(base, "home") };
    const location = sessionLocation("gemini-cli", "s-1", where);
    const deep = `/repo/${"d".repeat(250)}/`.repeat(16);
    const keys = Array.from({ length: MAX_SESSION_KEYS }, (_, i) => contextKey(`${deep}${i}`));
    writeSession(location, "gemini-cli", { keys: new Set(keys), snapshot: { at: 1 } }, true);
    expect(statSync(location.path).size).toBeLessThanOrEqual(4 * 1024 * 1024);
    const read = readSession(location);
    expect(read.keys.size).toBeGreaterThan(400);
    expect([...read.keys]).toEqual(keys.slice(-read.keys.size));
  });
});
