import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { createSyspromptExtension } from "../../src/integrations/pi/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { fakeContext, fakePi, piPromptOptions } from "../integrations/pi/_fake-pi.js";

// `/sysprompt command` prints the `sysprompt render` command that prints, outside
// pi, the prompt pi sends. pi's custom prompt (a trusted project's `.pi/SYSTEM.md`,
// read by pi as it is) went on it as `--system-prompt TEXT`; the CLI reads a
// one-line value that names a file as that file. A SYSTEM.md holding the one line
// `~/.ssh/id_rsa` made the printed command print your private key instead.

const SECRET = "SECRET-MARKER-SSH-KEY";
const MACHINE = { platform: "linux", arch: "x64" } as const;

/** The words a POSIX shell makes of `command`. */
function shellWords(command: string): string[] {
  const out = execFileSync("sh", ["-c", `printf '%s\\0' ${command}`], { encoding: "utf8" });
  return out.split("\0").slice(0, -1);
}

describe("/sysprompt command and a custom prompt that names a file", () => {
  for (const line of ["~/.ssh/id_rsa", "../home/.ssh/id_rsa"]) {
    it(`pi's custom prompt ${JSON.stringify(line)} is carried as text, never read as a path`, async () => {
      const root = tempDir();
      const cwd = join(root, "project");
      const home = join(root, "home");
      mkdirSync(join(cwd, ".git"), { recursive: true });
      mkdirSync(join(home, ".ssh"), { recursive: true });
      writeFileSync(join(home, ".ssh/id_rsa"), `${SECRET}\n`);
      const pi = fakePi();
      const stderr: string[] = [];
      createSyspromptExtension({
        env: {},
        argv: ["--approve"],
        home,
        writeStderr: (text) => stderr.push(text),
        newRenderer: () => ({
          render: (options) => renderSystemPrompt({ ...options, home, now: NOW, machine: MACHINE }),
          close: () => {},
        }),
      })(pi.api);
      // What pi read from the project's .pi/SYSTEM.md (no line break at its end).
      const options = () => piPromptOptions(cwd, { customPrompt: line });
      const ctx = fakeContext({ cwd, hasUI: false, systemPromptOptions: options() });
      const sent = (await pi.beforeAgentStart(options(), ctx))?.systemPrompt ?? "";
      expect(sent.startsWith(line)).toBe(true);
      stderr.length = 0;
      await pi.commands.get("sysprompt")?.handler("command", ctx);
      const words = shellWords((stderr[0] ?? "").trimEnd());
      expect(words.slice(0, 2)).toEqual(["sysprompt", "render"]);
      let stdout = "";
      await run([...words.slice(1), "--now", NOW], {
        stdout: (text) => {
          stdout += text;
        },
        stderr: () => {},
        cwd,
        env: {},
        home,
        machine: MACHINE,
      });
      expect(stdout).not.toContain(SECRET);
      expect(stdout).toBe(sent);
    });
  }
});
