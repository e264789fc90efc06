import { describe, expect, it } from "vitest";
import { hash128Hex } from "../../src/_hash.js";
import { sessionLocation } from "../../src/hook/state.js";

describe("hash128Hex", () => {
  it("is 32 hex digits, the same for the same text", () => {
    expect(hash128Hex("abc")).toMatch(/^[0-9a-f]{32}$/);
    expect(hash128Hex("abc")).toBe(hash128Hex("abc"));
    expect(hash128Hex("")).toMatch(/^[0-9a-f]{32}$/);
  });

  it("keeps apart 100,000 session-like ids, and texts one character or one position apart", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(hash128Hex(`0e8f2c3a-${i.toString(16)}-4b1d`));
    expect(seen.size).toBe(100_000);
    const near = ["ab", "ba", "a", "a\0", "\0a", "é", "e", "aa", "aaa"].map(hash128Hex);
    expect(new Set(near).size).toBe(near.length);
  });

  it("names a session's file without the id in it", () => {
    const where = { env: { XDG_CACHE_HOME: "/c" }, home: "/h" };
    const at = sessionLocation("codex", "../../etc/passwd", where);
    expect(at.path).toMatch(/^\/c\/sysprompt\/hook-codex-[0-9a-f]{32}\.json$/);
  });
});
