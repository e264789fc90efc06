import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_TOUCH_FOLDERS } from "../../src/gather/context/on-touch.js";
import { runHook } from "../../src/hook/run.js";
import { tempDir } from "../api/_helpers.js";

// One call searches at most MAX_TOUCH_FOLDERS folders; past it a warning
// says the deeper ones were not searched and may come with a later call.
// They never came: the hook's memo stamped every folder on the paths
// empty, searched or not, so the next call answered "nothing new" at once;
// and a full pass counted the folders given already against the cap, so it
// stopped at the same place every time. 20 paths 15 folders deep, an
// AGENTS.md in each: 256 given, the other 44 never. A pass cut short keeps
// no memo, and folders given before do not count.

const CHAINS = 20;
const DEPTH = 15;

describe("hostile repository: more folders on a call's paths than one call searches", () => {
  it("the next call brings the folders the first did not search", async () => {
    const base = tempDir();
    const cwd = join(base, "repo");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    const paths: string[] = [];
    for (let c = 0; c < CHAINS; c++) {
      let dir = join(cwd, `c${c}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "AGENTS.md"), `Chain ${c}.\n`);
      for (let l = 1; l < DEPTH; l++) {
        dir = join(dir, `l${l}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, "AGENTS.md"), `Chain ${c}, level ${l}.\n`);
      }
      writeFileSync(join(dir, "f.ts"), "");
      paths.push(join(dir, "f.ts"));
    }
    const home = join(base, "home");
    mkdirSync(home, { recursive: true });
    const where = { env: { XDG_CACHE_HOME: join(base, "cache") }, home };
    const input = JSON.stringify({
      session_id: "s-1",
      cwd,
      hook_event_name: "AfterTool",
      tool_name: "read_many_files",
      tool_input: { paths },
    });
    const given = (reply: string) => reply.match(/<instructions path=/g)?.length ?? 0;
    const first = await runHook("gemini-cli", input, where);
    expect(given(first.reply)).toBe(MAX_TOUCH_FOLDERS);
    expect(first.note).toMatch(/the deeper ones were not searched/);
    const second = await runHook("gemini-cli", input, where);
    expect(given(second.reply)).toBe(CHAINS * DEPTH - MAX_TOUCH_FOLDERS);
    const third = await runHook("gemini-cli", input, where);
    expect(given(third.reply)).toBe(0);
  }, 60_000);
});
