import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { settingLine } from "../../src/agents/export.js";
import { loadPreset } from "../../src/agents/load.js";
import { BUILTIN, tempDir } from "../api/_helpers.js";
import { cli, pinMachine } from "../cli/_run.js";

pinMachine();

// Review rev82d F1: `export --agent gemini-cli` printed its setting line shell-quoted, and its
// hint names two places for it: a wrapper script (a shell) and the project's `.gemini/.env`,
// which Gemini CLI reads with dotenv's `parse`. For a path with a `'` the shell's `'\''` was
// read there as another path (`/x/it'\''s/system.md`), a file a repository could ship. Now the
// line reads the same in both, or the path is refused (exit 2, nothing printed).

/**
 * motdotla/dotenv's `parse` (lib/main.js, v16/v17: its LINE pattern, then the value trimmed,
 * its quotes taken off, and in double quotes `\n` and `\r` made line breaks), as Gemini CLI's
 * `loadEnvironment` calls it on `.gemini/.env`.
 */
function dotenvParse(src: string): Record<string, string> {
  const LINE =
    /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/gm;
  const lines = src.replace(/\r\n?/gm, "\n");
  const parsed: Record<string, string> = {};
  for (let m = LINE.exec(lines); m !== null; m = LINE.exec(lines)) {
    let value = (m[2] ?? "").trim();
    const quote = value[0];
    value = value.replace(/^(['"`])([\s\S]*)\1$/gm, "$2");
    if (quote === '"') value = value.replace(/\\n/g, "\n").replace(/\\r/g, "\r");
    parsed[m[1] ?? ""] = value;
  }
  return parsed;
}

/** What a shell (a wrapper script) sets the variable to from the line. */
function shellReads(line: string): string {
  const run = spawnSync("bash", ["-c", `${line}\nprintf %s "$GEMINI_SYSTEM_MD"`], {
    encoding: "utf8",
  });
  return run.stdout;
}

/** Gemini CLI's builtin export spec (its setting line and quoting), as export reads it. */
async function geminiSpec() {
  const root = tempDir();
  const folders = {
    builtinDir: BUILTIN,
    agentDir: join(root, "agent"),
    projectDir: join(root, "project/.pi"),
    trusted: false,
  };
  const { preset } = await loadPreset("gemini-cli", folders);
  if (!preset.export) throw new Error("gemini-cli has no export");
  return preset.export;
}

describe("hostile repository: gemini-cli's export line reads the same in a shell and in .gemini/.env", () => {
  it("export --out into a folder it's: the printed line names that path in both", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project"), { recursive: true });
    writeFileSync(join(root, "project/AGENTS.md"), "Project notes.\n");
    const path = join(root, "out", "it's", "system.md");
    const out = await cli(root, ["export", "--agent", "gemini-cli", "--out", path]);
    expect(out.code, out.stderr).toBe(0);
    const line = out.stdout.trimEnd();
    expect(dotenvParse(`${line}\n`).GEMINI_SYSTEM_MD, line).toBe(path);
    expect(shellReads(line), line).toBe(path);
    // A ' with a $ (or a ", `, \\, !): no line both read so; refused, exit 2, nothing printed.
    const odd = join(root, "out", "it's $HOME", "system.md");
    const refused = await cli(root, ["export", "--agent", "gemini-cli", "--out", odd]);
    expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 2, stdout: "" });
    expect(refused.stderr).toContain(".gemini/.env");
  });

  it("every line it prints is read as its path by dotenv and by bash; only a ' with a shell or dotenv character is refused", async () => {
    const spec = await geminiSpec();
    const named: string[] = [];
    for (const folder of [
      "plain",
      "a b #c",
      'q"x',
      "b\\x",
      "d$x`y`",
      "e\\n",
      "it's",
      "it's a b#c",
      "it's\\n",
      "it's $HOME",
      'it\'s "x"',
      "it's`id`",
      "it's!",
    ]) {
      const path = `/tmp/x/${folder}/system.md`;
      const line = settingLine(spec, path);
      if (line === undefined) continue;
      expect(dotenvParse(`${line}\n`).GEMINI_SYSTEM_MD, `${folder}: ${line}`).toBe(path);
      expect(shellReads(line), `${folder}: ${line}`).toBe(path);
      named.push(folder);
    }
    expect(named).toEqual([
      "plain",
      "a b #c",
      'q"x',
      "b\\x",
      "d$x`y`",
      "e\\n",
      "it's",
      "it's a b#c",
    ]);
  });
});
