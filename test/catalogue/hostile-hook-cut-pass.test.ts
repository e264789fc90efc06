import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_TOUCH_FOLDERS } from "../../src/gather/context/on-touch.js";
import { callContext } from "../../src/hook/run.js";
import { tempDir } from "../api/_helpers.js";

// One call searches at most MAX_TOUCH_FOLDERS folders; past it a warning
// says the deeper ones were not searched and may come with a later call.
// They never came: the hook's memo stamped every folder on the paths
// empty, searched or not, so the next call answered "nothing new" at once;
// and a full pass counted the folders given already against the cap, so it
// stopped at the same place every time. 20 paths 15 folders deep, an
// AGENTS.md in each: 256 given, the other 44 never. A pass cut short keeps
// no memo, and folders given before do not count.

const CHAINS = 16; // a shell command names at most 16 paths (MAX_SHELL_PATHS)
const DEPTH = 17;
/** opencode reads its nested AGENTS.md itself, not this name. */
const NAME = "AGENTS.override.md";

describe("hostile repository: more folders on a call's paths than one call searches", () => {
  it("the next call brings the folders the first did not search", async () => {
    const base = tempDir();
    const cwd = join(base, "repo");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    const paths: string[] = [];
    for (let c = 0; c < CHAINS; c++) {
      let dir = join(cwd, `c${c}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, NAME), `Chain ${c}.\n`);
      for (let l = 1; l < DEPTH; l++) {
        dir = join(dir, `l${l}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, NAME), `Chain ${c}, level ${l}.\n`);
      }
      writeFileSync(join(dir, "f.ts"), "");
      paths.push(join(dir, "f.ts"));
    }
    const home = join(base, "home");
    mkdirSync(home, { recursive: true });
    const where = { env: { XDG_CACHE_HOME: join(base, "cache") }, home };
    // opencode's plugin (the hook's path, its text kept whole): a hook that holds its text to a
    // size (Gemini CLI's 9,500 characters) leaves files for later calls on its own.
    const call = {
      sessionId: "s-1",
      cwd,
      tool: "bash",
      input: { command: `cat ${paths.join(" ")}` },
    };
    const given = async () =>
      (await callContext("opencode", call, where)).text?.match(/<instructions path=/g)?.length ?? 0;
    const first = await callContext("opencode", call, where);
    expect(first.text?.match(/<instructions path=/g)?.length).toBe(MAX_TOUCH_FOLDERS);
    expect(first.note).toMatch(/the deeper ones were not searched/);
    expect(await given()).toBe(CHAINS * DEPTH - MAX_TOUCH_FOLDERS);
    expect(await given()).toBe(0);
  }, 60_000);
});
