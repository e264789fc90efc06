import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { geminiContextNames } from "../../src/gather/rules/gemini-settings.js";
import { geminiCut } from "../../src/hook/gemini-cut.js";
import { runHook } from "../../src/hook/run.js";
import { NO_DEADLINE, projectReach } from "../../src/repo-files/index.js";
import { writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";
import { geminiCall, geminiProject } from "./_gemini.js";

// Review rev107b F1 (low): a project's `.gemini/settings.json` of 1 MiB of
// nested `[[[…]]]` was parsed with no look at its shape, twice a hook call
// (once for each pass of the on-touch delivery, a third time for the shell
// threshold): some 0.45 s of CPU and 77 MB more on every Gemini CLI tool
// call. The hook's own input was shape-checked before its parse; the
// settings file was not. Now one reader parses a settings file (once for a
// text, shared), after a shape check sized for a settings file (64 levels,
// 4,096 arrays and objects); past it the file is not read, with the same
// warning as a file that is not JSON, its path and the line.

const HALF = (1024 * 1024 - 20) / 2;
const NESTED = `${"[".repeat(HALF)}${"]".repeat(HALF)}`;

/** Above 3x the CPU of a call with a settings file of `{}` (~40 ms here), below the ~450 ms the parse took. */
const BOUND_MS = 250;

function project(settings: string) {
  return geminiProject({
    "p/.gemini/settings.json": settings,
    "p/pkg/sub/AGENTS.md": "# sub\nNESTED-RULE\n",
    "p/pkg/sub/x.ts": "x\n",
  });
}

const cpu = async (p: ReturnType<typeof project>, session: string) =>
  cpuTimed(() => runHook("gemini-cli", geminiCall(session, p.cwd, "read_file", "x\n"), p.where));

describe("hostile repository: a .gemini/settings.json of 1 MiB of nested lists", () => {
  it("costs a hook call no more than a settings file of {} does, bounded", async () => {
    const idle = project("{}\n");
    await cpu(idle, "s-warm");
    const quiet = await cpu(idle, "s-idle");
    const p = project(NESTED);
    const { cpuMs, wallMs, value } = await cpu(p, "s-nested");
    expect(value.reply).toContain("NESTED-RULE");
    expect(cpuMs, `CPU time (${wallMs} ms on the clock; ${quiet.cpuMs} ms idle)`).toBeLessThan(
      BOUND_MS,
    );
  }, 60_000);

  it("is not read, said as a file that is not JSON is, with its path and line; the shell cut is the smallest", async () => {
    const p = project(
      `{\n  "context": {\n    "fileName": ${"[".repeat(70)}${"]".repeat(70)}\n  }\n}\n`,
    );
    const reach = await projectReach({
      start: p.cwd,
      home: p.where.home,
      trusted: true,
      signal: NO_DEADLINE,
    });
    const read = await geminiContextNames(p.cwd, reach);
    expect(read.names).toBeUndefined();
    expect(read.diagnostics).toEqual([
      {
        level: "warning",
        code: "gemini-settings",
        message:
          "not read as JSON (it nests deeper than 64 levels, at line 3); context.fileName not read, GEMINI.md used",
        path: join(p.cwd, ".gemini/settings.json"),
      },
    ]);
    const cut = await geminiCut(p.cwd, p.where);
    expect(cut.kept).toBe(0);
    expect(cut.unjudged).toMatch(/settings\.json cannot be read \(not read as JSON \(it nests/);
  });

  it("a settings file of more than 4,096 arrays and objects is not read; one of 900 MCP servers is", async () => {
    const servers = (n: number) =>
      JSON.stringify({
        context: { fileName: "TEAM.md" },
        mcpServers: Object.fromEntries(
          Array.from({ length: n }, (_, i) => [`s${i}`, { command: "npx", args: [`p${i}`] }]),
        ),
      });
    const p = project(servers(900));
    const reach = await projectReach({
      start: p.cwd,
      home: p.where.home,
      trusted: true,
      signal: NO_DEADLINE,
    });
    expect(await geminiContextNames(p.cwd, reach)).toEqual({ names: ["TEAM.md"], diagnostics: [] });
    writeFiles(p.cwd, { ".gemini/settings.json": servers(2100) });
    const many = await geminiContextNames(p.cwd, reach);
    expect(many.names).toBeUndefined();
    expect(many.diagnostics.map((d) => d.message)).toEqual([
      "not read as JSON (it holds more than 4096 arrays and objects, at line 1); context.fileName not read, GEMINI.md used",
    ]);
  });
});
