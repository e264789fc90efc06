import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { renderScenario } from "../../src/index.js";

/** The repository's root: `snapshots/` holds its own scenarios and goldens. */
const REPO = fileURLToPath(new URL("../../", import.meta.url));

describe("golden prompts (snapshots/*.scenario.yaml)", () => {
  it("sysprompt snapshot passes on the repository's own snapshots/", async () => {
    let stdout = "";
    let stderr = "";
    const code = await run(["snapshot", "snapshots"], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      cwd: REPO,
      env: {},
    });
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: [
        "pass    custom-system-with-append",
        "pass    default-tools",
        "pass    project-override-base",
        "pass    workspace-tree",
        "sysprompt snapshot: 4 scenarios: 4 passed, 0 drifted, 0 missing, 0 errors",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("renderScenario with toMatchFileSnapshot, as a project's own vitest suite would", async () => {
    const text = await renderScenario(join(REPO, "snapshots", "default-tools.scenario.yaml"));
    await expect(text).toMatchFileSnapshot("../../snapshots/default-tools.md");
  });
});
