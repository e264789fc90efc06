import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";

// `export --hooks` prints the command an agent runs after each tool call, in
// the project's folder. It named the sysprompt script alone, so the script's
// `#!/usr/bin/env node` found `node` through the agent's PATH: with a relative
// entry there (the `./node_modules/.bin` idiom, a `.`, an empty entry from
// `PATH=":$PATH"`), the project's own `node_modules/.bin/node` ran on every
// tool call, a read included, with no one typing anything. The probes and git
// never take a binary from such an entry (systemPathEntries); the hook now
// names the node binary by its absolute path too. Attack review attack21.

const posix = process.platform !== "win32";

async function hookCommand(cwd: string, self: string): Promise<string> {
  let stdout = "";
  const code = await run(["export", "--agent", "claude-code", "--hooks"], {
    stdout: (t) => {
      stdout += t;
    },
    stderr: () => {},
    cwd,
    env: {},
    home: join(cwd, "home"),
    self,
  });
  expect(code).toBe(0);
  return JSON.parse(stdout).hooks.PostToolUse[0].hooks[0].command;
}

describe.runIf(posix)("hostile-hook-node-on-path: the hook's node is never the project's", () => {
  it("a relative PATH entry in the project's folder does not pick the hook's node", async () => {
    const root = tempDir();
    // A stand-in for the installed sysprompt: a script run by whatever `node` its hashbang finds.
    const self = join(root, "tools", "sysprompt.cjs");
    mkdirSync(join(root, "tools"));
    writeFileSync(
      self,
      `#!/usr/bin/env node\nrequire("node:fs").writeFileSync(${JSON.stringify(join(root, "HOOK-RAN"))}, "");\n`,
    );
    chmodSync(self, 0o755);
    // The project: its own node in node_modules/.bin and at its root.
    const project = join(root, "project");
    mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
    mkdirSync(join(project, ".git"));
    const marker = join(root, "PROJECT-NODE-RAN");
    const fake = `#!/bin/sh\necho ran >> ${JSON.stringify(marker)}\n`;
    for (const at of [join(project, "node_modules", ".bin", "node"), join(project, "node")]) {
      writeFileSync(at, fake);
      chmodSync(at, 0o755);
    }
    const command = await hookCommand(project, self);
    for (const path of [`./node_modules/.bin${delimiter}`, `${delimiter}`, `.${delimiter}`]) {
      const ran = spawnSync("/bin/sh", ["-c", command], {
        cwd: project,
        env: { PATH: `${path}${process.env.PATH ?? "/usr/bin:/bin"}` },
        input: "{}",
      });
      expect(ran.status, `PATH starting ${JSON.stringify(path)}`).toBe(0);
      expect(existsSync(marker), `PATH starting ${JSON.stringify(path)}`).toBe(false);
      expect(existsSync(join(root, "HOOK-RAN"))).toBe(true);
    }
  });
});
