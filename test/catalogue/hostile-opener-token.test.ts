import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { NOW, tempDir } from "../api/_helpers.js";

// `serve --open` gave the opener (xdg-open, then the browser) the address with
// its token as an argument: a command line is in the process list, which other
// users of the machine can read (where /proc is not mounted with hidepid), and
// the token is all that keeps them from the prompt. Lead's finding (args50 3):
// the opener now gets the path of a page of ours, 0600 in a 0700 folder, that
// sends the browser on to the address; the page is removed when serve stops.

const WAIT_MS = 10_000;

async function until(done: () => boolean): Promise<void> {
  const start = Date.now();
  while (!done() && Date.now() - start < WAIT_MS) await new Promise((r) => setTimeout(r, 50));
}

describe.runIf(process.platform === "linux")(
  "serve --open: the token is on no command line",
  () => {
    it("the opener's arguments hold no token; the page it opens leads to the address", async () => {
      const root = tempDir();
      const project = join(root, "project");
      const argv = join(root, "opener-argv");
      // A system opener of the test's: writes its arguments, one a line.
      mkdirSync(join(root, "sys"), { recursive: true });
      mkdirSync(project, { recursive: true });
      mkdirSync(join(root, "agent"), { recursive: true });
      writeFileSync(join(root, "sys", "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$@" > ${argv}\n`);
      chmodSync(join(root, "sys", "xdg-open"), 0o755);
      const PATH = join(root, "sys");
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
      try {
        await until(() => existsSync(argv) && readFileSync(argv, "utf8").endsWith("\n"));
      } finally {
        process.env.PATH = saved;
      }
      const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=([\w-]+)/.exec(stdout);
      const token = url?.[1] ?? "";
      expect(token.length).toBeGreaterThan(20);
      const args = readFileSync(argv, "utf8").split("\n").filter(Boolean);
      expect(args).toHaveLength(1);
      expect(args.join(" ")).not.toContain(token);
      const page = args[0] ?? "";
      expect(statSync(page).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(page)).mode & 0o777).toBe(0o700);
      const html = readFileSync(page, "utf8");
      expect(html).toContain(`<meta http-equiv="refresh" content="0;url=${url?.[0]}">`);
      controller.abort();
      expect(await finished).toBe(0);
      expect(existsSync(page)).toBe(false);
    }, 20_000);
  },
);
