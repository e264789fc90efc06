import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPromptSession } from "../../src/session/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Review rev48b F9 (low): a glob rule (`.cursor/rules/*.mdc` with `globs:`)
// tests at most 64 names of a path (MAX_GLOB_PATH_SEGMENTS: a cost bound), so
// a file 64 folders or more below the rule's folder silently got no rule. It
// still gets none, but the touch now says so with the path
// (`touch-glob-too-deep`), and a path within the bound is matched as before.

const RULE =
  '---\ndescription: TS rule\nglobs: "**/*.ts"\nalwaysApply: false\n---\nGLOB-RULE-MARKER\n';

async function touch(root: string, file: string) {
  const session = createPromptSession(pinned(root));
  try {
    const r = await session.contextFor([file]);
    return {
      text: r.files.map((f) => f.content).join("\n"),
      diagnostics: r.diagnostics.filter((d) => d.code === "touch-glob-too-deep"),
    };
  } finally {
    session.close();
  }
}

describe("hostile-glob-too-deep-scale: a path too deep for glob rules is said, not silently unmatched", () => {
  it("a .ts file 70 folders deep: no rule, and a touch-glob-too-deep warning with its path; 60 deep: the rule", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".cursor", "rules"), { recursive: true });
    writeFileSync(join(project, ".cursor", "rules", "ts.mdc"), RULE);
    const deep = join(project, ..."d".repeat(70).split(""), "x.ts");
    const shallow = join(project, ..."s".repeat(60).split(""), "x.ts");
    for (const file of [deep, shallow]) {
      mkdirSync(join(file, ".."), { recursive: true });
      writeFileSync(file, "export {};\n");
    }
    const far = await touch(root, deep);
    expect(far.text).not.toContain("GLOB-RULE-MARKER");
    expect(far.diagnostics).toEqual([
      {
        level: "warning",
        code: "touch-glob-too-deep",
        message:
          "glob rules were not matched against this path: its path from a glob rule's folder has more than 64 names, deeper than globs are tested",
        path: deep,
      },
    ]);
    const near = await touch(root, shallow);
    expect(near.text).toContain("GLOB-RULE-MARKER");
    expect(near.diagnostics).toEqual([]);
  });
});
