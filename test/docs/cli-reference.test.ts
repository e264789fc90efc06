import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/main.js";
import { cliReference } from "../../src/cli/reference.js";
import { expectGenerated } from "./_generated.js";

describe("docs/cli.md", () => {
  it("holds the reference generated from the commander program between its markers", () => {
    expectGenerated("docs/cli.md", "cli-reference", cliReference(), {
      update: "UPDATE_CLI_REFERENCE",
      test: "test/docs/cli-reference.test.ts",
    });
  });

  it("has a part per command with its usage line, and the render flags once", () => {
    const io = { stdout: () => {}, stderr: () => {}, cwd: "/", env: {} };
    const names = createProgram(io)
      .program.commands.map((c) => c.name())
      .filter((n) => n !== "help");
    const page = cliReference();
    const parts = [...page.matchAll(/^### (.+)\n\n```\n(.+)\n```$/gm)].map((m) => [m[1], m[2]]);
    expect(parts).toEqual(names.map((n) => [n, expect.stringMatching(`^sysprompt ${n} `)]));
    expect(parts.find((p) => p[0] === "hook")).toEqual([
      "hook",
      "sysprompt hook [options] <agent>",
    ]);
    expect(page.match(/^\| `--tree-depth <n>` \|.*$/gm)).toEqual([
      "| `--tree-depth <n>` | levels the workspace tree shows, 1 to 8 (default 3); turns the tree on |",
    ]);
    expect(page).toContain(
      "| `--user` | copy into the user layer (&lt;agent-dir>/sections) instead |",
    );
  });
});
