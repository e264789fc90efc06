import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { NOW, tempDir } from "../api/_helpers.js";

// `npx sysprompt serve --open` runs with the project's node_modules/.bin first
// on PATH: the browser opener is a system binary, found as the probes find
// theirs, never the project's `xdg-open`.

/** How long the test waits for the opener to run: far above a render on a loaded machine. */
const WAIT_MS = 10_000;

function script(dir: string, name: string, marker: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\necho "$@" > ${marker}\n`);
  chmodSync(join(dir, name), 0o755);
}

async function until(done: () => boolean): Promise<void> {
  const start = Date.now();
  while (!done() && Date.now() - start < WAIT_MS) await new Promise((r) => setTimeout(r, 50));
}

describe.runIf(process.platform === "linux")("hostile repository: serve --open", () => {
  it("the project's node_modules/.bin/xdg-open never runs; the system one gets the address", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const planted = join(root, "planted-ran");
    const system = join(root, "system-ran");
    script(join(project, "node_modules", ".bin"), "xdg-open", planted);
    script(join(root, "sys"), "xdg-open", system);
    mkdirSync(join(root, "agent"), { recursive: true });
    const PATH = [join(project, "node_modules", ".bin"), join(root, "sys")].join(":");
    // As npx starts it: the process's own PATH, not only the one handed to run().
    const saved = process.env.PATH;
    process.env.PATH = PATH;
    const controller = new AbortController();
    let stdout = "";
    const finished = run(["serve", "--open", "--agent-dir", join(root, "agent"), "--now", NOW], {
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => {},
      cwd: project,
      env: { PATH },
      home: join(root, "home"),
      machine: { platform: "linux", arch: "x64" },
      signal: controller.signal,
    });
    await until(() => existsSync(system) || existsSync(planted)).finally(() => {
      process.env.PATH = saved;
    });
    controller.abort();
    expect(await finished).toBe(0);
    expect(existsSync(planted)).toBe(false);
    // The page of ours that leads to the address (hostile-opener-token.test.ts).
    expect(stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/);
    expect(readFileSync(system, "utf8")).toMatch(/\/sysprompt-open-\w+\/open\.html\n$/);
  }, 20_000);
});
