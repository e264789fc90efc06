import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkPresets, MAX_PRESET_FOLDER_ENTRIES, presetNames } from "../../src/agents/load.js";
import { BUILTIN, tempDir } from "../api/_helpers.js";

// `sysprompt check` loads every preset of every layer, and an unknown
// agent's error lists every preset name: a trusted project's .pi/agents
// of 20,000 one-line presets took check 25 s and 691 MB (a million would
// be hours), and a sysprompt.yaml naming an unknown agent printed all
// 20,000 names. A layer's agents/ folder of more than
// MAX_PRESET_FOLDER_ENTRIES entries offers no preset to list or check,
// with a warning; a preset named explicitly is still read by its name.

describe("hostile repository: a project's agents folder of very many presets", () => {
  it("is not listed past the cap: check warns once and loads none of them", async () => {
    const base = tempDir();
    const projectDir = join(base, "repo", ".pi");
    const agents = join(projectDir, "agents");
    mkdirSync(agents, { recursive: true });
    for (let i = 0; i < MAX_PRESET_FOLDER_ENTRIES + 50; i++) {
      writeFileSync(join(agents, `a${i}.yaml`), "description: x\nbogus-key: 1\n");
    }
    const folders = {
      builtinDir: BUILTIN,
      agentDir: join(base, "home", ".pi", "agent"),
      projectDir,
      trusted: true,
      cwd: join(base, "repo"),
      home: join(base, "home"),
    };
    expect(await presetNames(folders)).not.toContain("a1");
    const diagnostics = await checkPresets(folders);
    expect(diagnostics.map((d) => [d.code, d.path])).toEqual([["preset-folder-too-large", agents]]);
  }, 60_000);
});
