import { describe, expect, it } from "vitest";
import { MAX_JSON_CONTAINERS, MAX_JSON_VALUES, parseHookInput } from "../../src/hook/input.js";

// The hook refused input nested deeper than 256 levels before JSON.parse, but
// JSON.parse's cost is in the values it makes, not the depth: a hook input
// under the 32 MiB cap holding `[[],[],…]` (ten million empty arrays, flat)
// took 17 s and 700 MB, `{}` 22 s and 1.3 GB (the review's attack14; a 20 MB
// input of arrays 200 deep kept `sysprompt hook claude-code` 25 s at 660 MB),
// and the hook's 5 s timer cannot fire during the parse. A tool's response
// quoting repository content (a notebook's JSON outputs) is how a repository
// would reach it. The same pass that measures nesting now counts arrays,
// objects and values, and refuses past its caps before the parse.

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

describe("hostile repository: hook input of millions of values", () => {
  it.each([
    ["empty arrays", "[]", `more than ${MAX_JSON_CONTAINERS} arrays and objects`],
    ["empty objects", "{}", `more than ${MAX_JSON_CONTAINERS} arrays and objects`],
    ["numbers", "0", `more than ${MAX_JSON_VALUES} values`],
  ])("refuses a flat list of 5 million %s before JSON.parse", (_, item, problem) => {
    const text = withResponse(`[${`${item},`.repeat(5_000_000)}${item}]`);
    const started = performance.now();
    expect(parseHookInput("claude-code", text)).toEqual({
      problem: `the hook input holds ${problem}`,
    });
    // One pass over 15 MB; the parse alone took seconds.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("parses an agent's input of thousands of values and a long quoted text", () => {
    const files = Array.from({ length: 20_000 }, (_, i) => `src/f${i}.ts`);
    const text = withResponse(JSON.stringify({ filenames: files, text: "[],".repeat(1_000_000) }));
    expect(parseHookInput("claude-code", text)).toMatchObject({ call: { tool: "Read" } });
  });
});
