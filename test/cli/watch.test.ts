import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { copyScenario, NOW, pinned, tempDir } from "../api/_helpers.js";
import { until } from "../author/_until.js";
import { cli, pinMachine, usageHint } from "./_run.js";

pinMachine();

/** Render times and the number of folders differ from run to run and machine to machine. */
const normalize = (text: string) =>
  text.replace(/\d+\.\d ms/g, "N ms").replace(/watching \d+ folders/, "watching N folders");

// Past `until`'s 10 s per wait: a test makes several.
describe("sysprompt watch", { timeout: 30_000 }, () => {
  it("sees an edit, a broken edit (its diagnostic, and goes on) and the fix, then stops on abort", async () => {
    const root = copyScenario("watch", "edit-break-fix");
    const team = join(root, "project", ".pi", "sections", "team.md");
    // The cwd section holds the temp folder's path, whose length is the machine's.
    const first = await renderSystemPrompt(pinned(root));
    let stdout = "";
    let stderr = "";
    const controller = new AbortController();
    const done = run(["watch", "--agent-dir", join(root, "agent"), "--now", NOW], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      cwd: join(root, "project"),
      env: {},
      home: join(root, "home"),
      machine: { platform: "linux", arch: "x64" },
      signal: controller.signal,
    });
    await until(() => stdout.includes("(Ctrl-C to stop)\n"), "the first render");

    writeFileSync(team, "---\norder: 65\n---\nTeam: two people.\n");
    await until(() => stdout.includes("[1] "), "the edit");
    writeFileSync(team, "---\norder: 65\n---\n{{#if tools}}\nTeam: broken.\n");
    await until(() => stdout.includes("[2] "), "the broken edit");
    writeFileSync(team, "---\norder: 65\n---\nTeam: three people.\n");
    await until(() => stdout.includes("[3] "), "the fix");
    controller.abort();
    expect(await done).toBe(0);

    const error = `error ${team}:4:1 [template] Block "if" is never closed: expected {{/if}}; the section is left out`;
    expect(normalize(stdout).split("\n")).toEqual([
      `rendered 8 sections, ${Buffer.byteLength(first.text)} bytes in N ms; watching N folders (Ctrl-C to stop)`,
      "[1] .pi/sections/team.md changed: rendered in N ms, 1 section changed: team",
      "~ team  .pi/sections/team.md",
      "  @@ -1,3 +1,3 @@",
      "   <team>",
      "  -Team: small.",
      "  +Team: two people.",
      "   </team>",
      "[2] .pi/sections/team.md changed: rendered in N ms, 1 section changed: team",
      "- team (removed)",
      error,
      "[3] .pi/sections/team.md changed: rendered in N ms, 1 section changed: team",
      "+ team  .pi/sections/team.md",
      "  @@ -1,0 +1,3 @@",
      "  +<team>",
      "  +Team: three people.",
      "  +</team>",
      `fixed ${error}`,
      "stopped watching",
      "",
    ]);
    expect(stderr).toBe("");
  });

  it("bad usage is exit 2 before anything is watched", async () => {
    const root = tempDir();
    expect(await cli(root, ["watch", "--deadline", "soon"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: --deadline expects a whole number of milliseconds, 0 or more, such as 5000, got "soon"\n${usageHint("watch")}`,
    });
  });

  it("--help shows an example", async () => {
    const out = await cli(tempDir(), ["watch", "--help"], false);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(
      "Example:\n  $ sysprompt watch --model gpt-5    # then edit .pi/sections/*.md; Ctrl-C stops\n",
    );
  });
});
