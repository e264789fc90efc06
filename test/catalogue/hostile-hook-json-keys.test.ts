import { describe, expect, it } from "vitest";
import { MAX_JSON_KEYS, parseHookInput } from "../../src/hook/input.js";

// The hook counts arrays, objects and values before JSON.parse (caps of
// 100,000 and 2 million), but an object's cost is in its keys: each key name
// JSON.parse has not seen in that place makes a new hidden class. 99,000
// objects of 20 keys each, every name new (`{"k0":1,…,"k19":1},{"k20":1,…}`,
// 25 MB, under both caps: 99,000 containers, 1.98 million values), kept
// `sysprompt hook claude-code` busy 11.8-22 s (7.9-8.5 s CPU) at 750 MB, the
// hook's 5 s timer unable to fire during the parse (the review's attack19).
// A tool's response quoting repository content (a JSON file a Read returns
// as objects, an MCP tool's result) is how a repository would reach it. The
// same pass now counts the keys (a colon outside a string) and refuses past
// MAX_JSON_KEYS.

const READ = {
  session_id: "s-1",
  cwd: "/work/p",
  hook_event_name: "PostToolUse",
  tool_name: "Read",
  tool_input: { file_path: "x.ts" },
};

/** READ with `response` as its tool_response's text, spliced in unparsed. */
const withResponse = (response: string) => {
  const text = JSON.stringify({ ...READ, tool_response: null });
  return text.replace('"tool_response":null', `"tool_response":${response}`);
};

/** `objects` objects of `per` keys each, no key name used twice. */
function newKeys(objects: number, per: number): string {
  const out: string[] = [];
  let n = 0;
  for (let i = 0; i < objects; i++) {
    const keys: string[] = [];
    for (let j = 0; j < per; j++) keys.push(`"k${n++}":1`);
    out.push(`{${keys.join(",")}}`);
  }
  return `[${out.join(",")}]`;
}

describe("hostile repository: hook input of millions of object keys", () => {
  it("refuses 99,000 objects of 20 new keys each before JSON.parse", () => {
    const text = withResponse(newKeys(99_000, 20));
    const started = performance.now();
    expect(parseHookInput("claude-code", text)).toEqual({
      problem: `the hook input holds more than ${MAX_JSON_KEYS} object keys`,
    });
    // One pass over 25 MB; the parse alone took 8 s of CPU.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("refuses one object of 200,000 keys", () => {
    const text = withResponse(newKeys(1, 200_000));
    expect(parseHookInput("claude-code", text)).toEqual({
      problem: `the hook input holds more than ${MAX_JSON_KEYS} object keys`,
    });
  });

  it("counts no colon inside a string: a long quoted text of them parses", () => {
    const text = withResponse(JSON.stringify({ text: '"a":1,'.repeat(500_000), files: ["a:b"] }));
    expect(parseHookInput("claude-code", text)).toMatchObject({ call: { tool: "Read" } });
  });

  it("parses an agent's input of thousands of objects", () => {
    const text = withResponse(newKeys(2_000, 20));
    expect(parseHookInput("claude-code", text)).toMatchObject({ call: { tool: "Read" } });
  });
});
