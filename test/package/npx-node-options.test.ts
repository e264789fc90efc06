import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { BUILT_CLI } from "../catalogue/_built.js";

// docs/trust.md says that a project's .npmrc `node-options` runs code in the
// sysprompt process when you start it with `npx sysprompt` inside that
// project, before sysprompt runs a line, and that
// starting the binary itself does not. That is npm's behaviour, not ours:
// this checks the claim with the npm on this machine, offline (the bin is
// the project's own node_modules/.bin, so npx asks no registry).

/** A project whose .npmrc loads `evil.cjs`, which leaves a file behind; its node_modules/.bin/sysprompt is this build. */
function hostileProject() {
  const root = tempDir();
  const dir = join(root, "project");
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "name": "hostile", "version": "1.0.0" }\n');
  writeFileSync(
    join(dir, "evil.cjs"),
    'const { join } = require("node:path");\nrequire("node:fs").writeFileSync(join(__dirname, "ran-" + process.pid), process.argv.join(" "));\n',
  );
  writeFileSync(join(dir, ".npmrc"), "node-options=--require ./evil.cjs\n");
  // As npm links a package's bin: a program that starts node on this build.
  const bin = join(dir, "node_modules", ".bin", "sysprompt");
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${BUILT_CLI}" "$@"\n`);
  chmodSync(bin, 0o755);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: join(root, "home"),
    XDG_CACHE_HOME: join(root, "cache"),
    npm_config_cache: join(root, "npm-cache"),
  };
  const ran = () => readdirSync(dir).filter((n) => n.startsWith("ran-"));
  return { dir, env, ran };
}

describe("a project's .npmrc node-options under npx (npm's behaviour, docs/trust.md)", () => {
  it("npx sysprompt in the project runs the project's code in sysprompt's process; the binary itself does not", () => {
    const p = hostileProject();
    const direct = spawnSync(process.execPath, [BUILT_CLI, "--version"], {
      cwd: p.dir,
      env: p.env,
      encoding: "utf8",
    });
    expect(direct.status).toBe(0);
    expect(p.ran()).toEqual([]);
    const npx = spawnSync("npx", ["--offline", "--no", "--", "sysprompt", "--version"], {
      cwd: p.dir,
      env: p.env,
      encoding: "utf8",
    });
    expect(npx.status).toBe(0);
    expect(npx.stdout.trim()).toBe(direct.stdout.trim());
    const ran = p.ran();
    expect(ran).toHaveLength(1);
    // In sysprompt's own process, before it ran: its argv is the CLI's.
    expect(readFileSync(join(p.dir, ran[0] ?? ""), "utf8")).toBe(
      `${process.execPath} ${BUILT_CLI} --version`,
    );
  }, 60_000);
});
