import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import type { Rule } from "../../src/gather/rules/types.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev78b F2: a codex hook call into a repository whose 16 nested AGENTS.md are plain
// Hangul text (86,000 syllables of 11,000 kinds each, under the 256 KiB cap) took 2-3 s of CPU
// and more than the hook's 5 s on a loaded machine (32 of them 13 s of CPU): every call answered
// nothing, and your own glob rule, matched first, never arrived. The cost was rev78b F1's (each
// character's Unicode readings redone once a 4,096-entry cache was cleared, on every file, those
// past the 2 MiB total too); the call now costs the characters' readings once.

/** Far above the fixed call on a loaded machine (~0.4 s idle), far below the bad one (~4 s). */
const BOUND_MS = 2_000;

function syllables(base: number, span: number, count = 86_000): string {
  let text = "";
  for (let k = 0; text.length < count; ) {
    text += String.fromCodePoint(base + (k++ % span));
    if (k % 60 === 0) text += "\n";
  }
  return text;
}

describe("hostile repository: a touch below 16 AGENTS.md of 11,000 distinct Hangul syllables", () => {
  it("costs the call its characters' readings once, and your glob rule comes first", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const files: Record<string, string> = { "project/.git/HEAD": "ref: refs/heads/main\n" };
    let folder = "project";
    for (let i = 0; i < 16; i++) {
      if (i > 0) folder += `/l${i}`;
      files[`${folder}/AGENTS.md`] = syllables(0xac00 + i * 13, 11_000);
    }
    files[`${folder}/x.txt`] = "hi\n";
    files["home/.pi/agent/rules/txt.md"] = "MY-GLOB-RULE-MARKER: text files need a header.\n";
    writeFiles(root, files);
    const rules: Rule[] = [
      {
        name: "txt",
        path: join(root, "home/.pi/agent/rules/txt.md"),
        content: "MY-GLOB-RULE-MARKER: text files need a header.",
        activation: "glob",
        globs: ["**/*.txt"],
        source: "sysprompt",
        layer: "user",
      },
    ];
    const options = { cwd: project, home: join(root, "home"), rules, deadlineMs: 60_000 };
    // The first call's loading and compiles are not what is timed.
    await loadContextForPaths([join(project, "x.ts")], { ...options, rules: [] });
    const { cpuMs, value } = await cpuTimed(() =>
      loadContextForPaths([join(root, folder, "x.txt")], options),
    );
    expect(value.files[0]?.content).toContain("MY-GLOB-RULE-MARKER");
    expect(value.files.filter((f) => f.kind === "context")).toHaveLength(15);
    expect(cpuMs).toBeLessThan(BOUND_MS);
  }, 120_000);
});
