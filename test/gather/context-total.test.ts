import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadContextFiles, traceContextFiles } from "../../src/gather/context/context-files.js";
import * as door from "../../src/repo-files/read.js";
import { tempDir } from "../api/_helpers.js";

vi.mock("../../src/repo-files/read.js", async (original) => {
  const actual = await original<typeof import("../../src/repo-files/read.js")>();
  return { ...actual, readRepoCapped: vi.fn(actual.readRepoCapped) };
});

/** `<root>/agent`, `<root>/project` (a checkout) and `<root>/project/sub`. */
function layout(): { root: string; agent: string; project: string; sub: string } {
  const root = tempDir();
  const agent = join(root, "agent");
  const project = join(root, "project");
  const sub = join(project, "sub");
  mkdirSync(agent);
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(sub);
  return { root, agent, project, sub };
}

describe("the total size of the context files", () => {
  it("is capped: the project's files farthest from cwd are cut first, the user's file last", async () => {
    const { agent, project, sub } = layout();
    writeFileSync(join(agent, "AGENTS.md"), `${"u".repeat(100)}\n`);
    writeFileSync(join(project, "AGENTS.md"), "r".repeat(1000));
    writeFileSync(join(sub, "AGENTS.md"), "s".repeat(1000));
    const result = await loadContextFiles({
      cwd: sub,
      agentDir: agent,
      maxBytes: 1000,
      maxTotalBytes: 1500,
    });
    const marker =
      "[… 600 B (600 bytes) more of this file left out: context files together are capped at 1.5 KiB]";
    expect(result).toEqual({
      files: [
        { path: `${agent}/AGENTS.md`, content: "u".repeat(100), origin: "user" },
        {
          path: `${project}/AGENTS.md`,
          content: `${"r".repeat(400)}\n${marker}`,
          origin: "project",
        },
        { path: `${sub}/AGENTS.md`, content: "s".repeat(1000), origin: "project" },
      ],
      diagnostics: [
        {
          level: "warning",
          code: "context-total-cut",
          message:
            "cut after 400 of 1000 bytes: the context files together are capped at 1500 bytes, and the user's file and the later files (closer to the working directory) come first",
          path: join(project, "AGENTS.md"),
        },
      ],
    });
  });

  it("a file left with no room keeps only the marker", async () => {
    const { agent, project, sub } = layout();
    writeFileSync(join(agent, "AGENTS.md"), `${"u".repeat(600)}\n`);
    writeFileSync(join(project, "AGENTS.md"), "Root rules.\n");
    writeFileSync(join(sub, "AGENTS.md"), `${"s".repeat(600)}\n`);
    const result = await loadContextFiles({ cwd: sub, agentDir: agent, maxTotalBytes: 1200 });
    expect(result.files.map((f) => f.content)).toEqual([
      "u".repeat(600),
      "[… 11 B (11 bytes) more of this file left out: context files together are capped at 1.2 KiB]",
      "s".repeat(600),
    ]);
  });

  it("one file imported by several ancestors is read once", async () => {
    const { agent, project, sub } = layout();
    writeFileSync(join(project, "shared.md"), "Shared.");
    writeFileSync(join(project, "AGENTS.md"), "@./shared.md\n");
    writeFileSync(join(sub, "AGENTS.md"), "Sub.\n\n@../shared.md\n");
    const read = vi.mocked(door.readRepoCapped);
    read.mockClear();
    const result = await traceContextFiles({ cwd: sub, agentDir: agent });
    expect(result.files.map((f) => f.content)).toEqual(["Sub.\n\nShared."]);
    expect(read.mock.calls.filter(([p]) => p === join(project, "shared.md"))).toHaveLength(1);
  });

  it("each file's imports stop at the total cap, with one info", async () => {
    const { agent, project } = layout();
    for (let i = 0; i < 5; i++) writeFileSync(join(project, `d${i}.md`), "x".repeat(400));
    writeFileSync(join(project, "AGENTS.md"), [0, 1, 2, 3, 4].map((i) => `@./d${i}.md`).join("\n"));
    const result = await loadContextFiles({ cwd: project, agentDir: agent, maxTotalBytes: 1000 });
    expect(result.diagnostics).toEqual([
      {
        level: "info",
        code: "import-total",
        message:
          "the context files together are capped at 1000 bytes and this file has reached it; the rest of its imports are left as written",
        path: join(project, "AGENTS.md"),
        line: 4,
        column: 1,
      },
      {
        level: "warning",
        code: "context-total-cut",
        message:
          "cut after 1000 of 1220 bytes: the context files together are capped at 1000 bytes, and the user's file and the later files (closer to the working directory) come first",
        path: join(project, "AGENTS.md"),
      },
    ]);
  });
});
