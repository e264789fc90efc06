import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ancestorsOf } from "../../src/_paths.js";
import { traceContextFiles } from "../../src/gather/context/context-files.js";
import { preparePrompt } from "../../src/render-system-prompt.js";
import { copyScenario, pinned } from "../api/_helpers.js";

/**
 * The scenario: the agent dir's AGENTS.md ("Use pnpm.") is repeated by the
 * project's; the user's file outranks it and stays, and the project's copy
 * of the paragraph stays too (a marker would be longer than the paragraph it
 * stands for): nothing is dropped. The project's imports docs/style.md, which
 * imports docs/tabs.md, and docs/big.md, which is over the 64-byte cap used here.
 */
function scenario() {
  const root = copyScenario("explain", "provenance");
  // The project root, so the project file's imports are confined to it.
  mkdirSync(join(root, "project", ".git"));
  return { root, project: join(root, "project"), agent: join(root, "agent") };
}

describe("context file provenance", () => {
  it("lists the folders searched, each file's imports (every level) and cuts; the user's file outranks the project's copy of it", async () => {
    const { root, project, agent } = scenario();
    const traced = await traceContextFiles({
      cwd: project,
      agentDir: agent,
      home: join(root, "home"),
      maxBytes: 64,
    });
    expect(traced.provenance).toEqual({
      folders: [agent, ...ancestorsOf(project)],
      files: [
        { path: `${agent}/AGENTS.md`, origin: "user", imports: [], cut: [] },
        {
          path: `${project}/AGENTS.md`,
          origin: "project",
          imports: [
            `${project}/docs/style.md`,
            `${project}/docs/tabs.md`,
            `${project}/docs/big.md`,
          ],
          cut: [`${project}/docs/big.md`],
        },
      ],
      dropped: [],
    });
    expect(traced.files.map((f) => f.path)).toEqual([`${agent}/AGENTS.md`, `${project}/AGENTS.md`]);
  });

  it("a context file over the cap is itself listed as cut", async () => {
    const { root, project, agent } = scenario();
    const traced = await traceContextFiles({
      cwd: project,
      agentDir: agent,
      home: join(root, "home"),
      maxBytes: 20,
    });
    expect(traced.provenance.files[1]).toEqual({
      path: `${project}/AGENTS.md`,
      origin: "project",
      // Cut before its imports: the tokens past the cap are not there to expand.
      imports: [],
      cut: [`${project}/AGENTS.md`],
    });
  });

  it("reaches PreparedPrompt as `context`; without context files it is empty", async () => {
    const { root, project, agent } = scenario();
    const prepared = await preparePrompt(pinned(root));
    expect(prepared.context.files.map((f) => f.path)).toEqual([
      `${agent}/AGENTS.md`,
      `${project}/AGENTS.md`,
    ]);
    expect(prepared.context.dropped).toEqual([]);
    const none = await preparePrompt(pinned(root, { noContextFiles: true }));
    expect(none.context).toEqual({ folders: [], files: [], dropped: [] });
  });
});
