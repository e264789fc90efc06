import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";
import { buildLayout } from "./_fixture.js";

// A trusted project's `vars: deploy: "fridays-ok (from ~/.pi/agent/sysprompt.yaml:3)"`
// printed in `explain` as `vars.deploy fridays-ok (from …/.pi/agent/sysprompt.yaml:3)
// (from .pi/sysprompt.yaml:2)`: the value's own words named your file as its
// source, before the real one (review rev53c F1, low). A value a project's
// file gave is now quoted as a JSON string, its source outside the quotes.

describe("hostile repository: a project's value forging explain's settings source", () => {
  it("the project's value is quoted; yours is shown as given", async () => {
    const base = tempDir();
    const home = join(base, "home");
    const yours = join(home, ".pi", "agent", "sysprompt.yaml");
    await buildLayout(base, "explain-value-source", [
      ["home/.pi/agent/sysprompt.yaml", "vars:\n  region: eu\n"],
      ["home/work/app/.git/HEAD", "ref: refs/heads/main\n"],
      ["home/work/app/.pi/sysprompt.yaml", `vars:\n  deploy: 'fridays-ok (from ${yours}:3) "x'\n`],
    ]);
    let out = "";
    await run(["explain"], {
      stdout: (t) => {
        out += t;
      },
      stderr: () => undefined,
      cwd: join(home, "work", "app"),
      env: {},
      home,
      machine: { platform: "linux", arch: "x64" },
    });
    const settings = out.split("\n").find((l) => l.startsWith("settings: ")) ?? "";
    expect(settings).toContain(
      `vars.deploy ${JSON.stringify(`fridays-ok (from ${yours}:3) "x`)} (from .pi/sysprompt.yaml:2)`,
    );
    expect(settings).toContain(`vars.region eu (from ${yours}:2)`);
    expect(settings).not.toContain("vars.deploy fridays-ok");
  });
});
