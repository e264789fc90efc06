import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { NOW, tempDir } from "../api/_helpers.js";

// `serve --open` hands the address to xdg-open, which reads which program
// opens `http:` from mimeapps.list and .desktop files under HOME and the XDG
// folders. With HOME (or XDG_CONFIG_HOME, XDG_DATA_HOME) inside the checkout,
// those are the project's: its own program would run. The browser is then not
// opened; the address is printed, with why.

const WAIT_MS = 10_000;

async function until(done: () => boolean): Promise<void> {
  const start = Date.now();
  while (!done() && Date.now() - start < WAIT_MS) await new Promise((r) => setTimeout(r, 50));
}

/** Runs `serve --open` with `env` on top of a system xdg-open that writes `<root>/system-ran`. */
async function serveOpen(env: (root: string, project: string) => Record<string, string>, sub = "") {
  const root = tempDir();
  const project = join(root, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, sub), { recursive: true });
  mkdirSync(join(root, "sys"));
  const ran = join(root, "system-ran");
  writeFileSync(join(root, "sys", "xdg-open"), `#!/bin/sh\necho "$@" > ${ran}\n`);
  chmodSync(join(root, "sys", "xdg-open"), 0o755);
  mkdirSync(join(root, "agent"));
  const controller = new AbortController();
  let stderr = "";
  const finished = run(["serve", "--open", "--agent-dir", join(root, "agent"), "--now", NOW], {
    stdout: () => {},
    stderr: (text) => {
      stderr += text;
    },
    cwd: join(project, sub),
    env: { PATH: join(root, "sys"), ...env(root, project) },
    home: env(root, project).HOME ?? join(root, "home"),
    machine: { platform: "linux", arch: "x64" },
    signal: controller.signal,
  });
  await until(() => existsSync(ran) || stderr.includes("could not open"));
  controller.abort();
  expect(await finished).toBe(0);
  return { ran: existsSync(ran), stderr };
}

describe.runIf(process.platform === "linux")("hostile repository: serve --open's settings", () => {
  it("HOME inside the checkout: the opener does not run, the address is printed", async () => {
    const { ran, stderr } = await serveOpen((_, project) => ({ HOME: join(project, ".home") }));
    expect(ran).toBe(false);
    expect(stderr).toMatch(/could not open a browser \(\$HOME .* lies inside the project/);
  }, 20_000);

  it("HOME the checkout's root, run from a subfolder: the opener does not run", async () => {
    // A checkout cloned as the home folder: from src, its mimeapps.list is the project's as from the root.
    const { ran, stderr } = await serveOpen((_, project) => ({ HOME: project }), "src");
    expect(ran).toBe(false);
    expect(stderr).toMatch(/could not open a browser \(\$HOME .* lies inside the project/);
  }, 20_000);

  it("XDG_DATA_HOME inside the checkout: the same", async () => {
    const { ran, stderr } = await serveOpen((root, project) => ({
      HOME: join(root, "home"),
      XDG_DATA_HOME: join(project, ".local", "share"),
    }));
    expect(ran).toBe(false);
    expect(stderr).toContain("$XDG_DATA_HOME");
  }, 20_000);

  it("HOME and the XDG folders outside the project: the opener runs", async () => {
    const { ran } = await serveOpen((root) => ({
      HOME: join(root, "home"),
      XDG_CONFIG_HOME: join(root, "home", ".config"),
    }));
    expect(ran).toBe(true);
  }, 20_000);
});
