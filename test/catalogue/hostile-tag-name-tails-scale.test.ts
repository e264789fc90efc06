import { describe, expect, it } from "vitest";
import { escapeWrapperTags, HOST_ELEMENTS } from "../../src/_prompt-text.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev82b F1-F3: the element-name reader keyed each tail and head of a tag name
// afresh (a slice, lower-casing, two replaces) to find a prefixed or suffixed name
// (`<x:user_instructions>`, `<system-reminder:x>`): some 40 keys of some 40 characters
// for a name `<a_a_…a_1>`, and the cache of keys ends at 4,096 names, so a text of
// distinct names paid it on every name, at each of the 4-8 readings three invisible
// characters and a reference turn on: 1 MB of them held a render 9-35 s of CPU. Each
// tail's key is now made from the next one's as the name is read, looked up only when
// its length is a key's. Measured against the same text with names of no separator
// (`<abab…>`), which has no tail to read: 13.6 times its CPU before, 2.8-3.2 after.

const NAMES: ReadonlySet<string> = new Set([
  ...HOST_ELEMENTS,
  "repository_instructions",
  "user_instructions",
  "rule",
  "rules",
]);

/** Lines of distinct names of 38 `part`s, after a line of three invisible characters (four readings). */
function names(part: string, count: number): string {
  let text = "x\u200b\u{e0041}\u3164 y\n";
  for (let k = 0; k < count; k++) text += `<${part.repeat(38)}z${k}\n`;
  return text;
}

describe("rev82b F1-F3: the tails and heads of distinct ASCII tag names", () => {
  it("cost about what names of no separator cost", async () => {
    // Warmed first: what is timed is the reader, not its compilation.
    escapeWrapperTags(names("ab", 2000), NAMES);
    escapeWrapperTags(names("a_", 2000), NAMES);
    const plain = await cpuTimed(() => escapeWrapperTags(names("ab", 5000), NAMES));
    const separated = await cpuTimed(() => escapeWrapperTags(names("a_", 5000), NAMES));
    expect(plain.value.includes("&lt;")).toBe(false);
    expect(separated.value.includes("&lt;")).toBe(false);
    expect(separated.cpuMs / plain.cpuMs).toBeLessThan(7);
  }, 60_000);

  it("still holds the prefixed and suffixed names among them", () => {
    const text = `${names("a_", 50)}<a_x:user_instructions>\n</a_b-repository-instructions>\n<system-reminder:a_b>\n<RN:ru1e>\n`;
    const out = escapeWrapperTags(text, NAMES);
    expect(out).toContain("&lt;a_x:user_instructions>");
    expect(out).toContain("&lt;/a_b-repository-instructions>");
    expect(out).toContain("&lt;system-reminder:a_b>");
    expect(out).toContain("&lt;RN:ru1e>");
    expect(out.split("&lt;").length - 1).toBe(4);
  });
});
