import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_RESULT_TEXT } from "../../../src/hook/reply.js";
import * as plugin from "../../../src/integrations/opencode/plugin.js";
import { tempDir } from "../../api/_helpers.js";

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.XDG_CACHE_HOME;
});
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
});

function project() {
  const root = tempDir();
  const cwd = join(root, "p");
  const files: Record<string, string> = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "pkg/sub/AGENTS.md": "opencode reads this itself.\n",
    "pkg/sub/x.ts": "",
    ".cursor/rules/ts.mdc": '---\nglobs: ["**/*.ts"]\n---\nStrict TS.\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(cwd, path, ".."), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  process.env.XDG_CACHE_HOME = join(root, "cache");
  return cwd;
}

describe("the opencode plugin", () => {
  it("exports one function only: opencode calls every export as a plugin", () => {
    expect(Object.keys(plugin)).toEqual(["SyspromptPlugin"]);
  });

  it("appends the glob rule to the read's output once per session; the nested AGENTS.md is opencode's own", async () => {
    const cwd = project();
    const hooks = await plugin.SyspromptPlugin({ directory: cwd });
    const call = async (sessionID: string, tool: string, args: unknown) => {
      const output = { title: "", output: "file text", metadata: {} };
      await hooks["tool.execute.after"]({ tool, sessionID, callID: "c", args }, output);
      return output.output;
    };
    expect(await call("ses_1", "read", { filePath: join(cwd, "pkg/sub/x.ts") })).toBe(
      `file text\n\nAn instruction file applies to what this call touched (given once per session):\n<instructions path=".cursor/rules/ts.mdc" rule="ts">\nStrict TS.\n\n</instructions>`,
    );
    expect(await call("ses_1", "read", { filePath: join(cwd, "pkg/sub/x.ts") })).toBe("file text");
    expect(await call("ses_1", "webfetch", { url: "https://x" })).toBe("file text");
    // Without args (an older opencode) or with a bad shape: nothing, and no throw.
    expect(await call("ses_2", "read", undefined)).toBe("file text");
    await hooks["tool.execute.after"]({} as never, {} as never);
  });

  it("adds nothing after an output too long to read for what it leaves open, and gives nothing", async () => {
    const cwd = project();
    const hooks = await plugin.SyspromptPlugin({ directory: cwd });
    const args = { filePath: join(cwd, "pkg/sub/x.ts") };
    const long = { title: "", output: `\`\`\`\n${"x".repeat(MAX_RESULT_TEXT)}`, metadata: {} };
    await hooks["tool.execute.after"](
      { tool: "read", sessionID: "ses_3", callID: "c", args },
      long,
    );
    expect(long.output.endsWith("x")).toBe(true);
    const next = { title: "", output: "file text", metadata: {} };
    await hooks["tool.execute.after"](
      { tool: "read", sessionID: "ses_3", callID: "c", args },
      next,
    );
    expect(next.output).toContain("Strict TS.");
  });
});
