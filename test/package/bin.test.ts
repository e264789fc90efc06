import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";
import { ensureBuilt } from "../catalogue/_built.js";

// The `bin` that npm links as `sysprompt` is run by the shell, not by `node`:
// it needs a hashbang on its first line and an executable mode in the tarball
// (npm keeps the file's mode). scripts/test-package.mjs runs it installed from
// the tarball; these are the parts of that which are fast enough for npm test.

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as {
  bin: Record<string, string>;
};

describe("the sysprompt command as npm links it", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it("starts with a node hashbang, is executable, and runs without `node` in front", () => {
    const bin = join(REPO, pkg.bin.sysprompt ?? "");
    expect(readFileSync(bin, "utf8").split("\n", 1)[0]).toBe("#!/usr/bin/env node");
    expect((statSync(bin).mode & 0o777).toString(8)).toBe("755");
    const out = spawnSync(bin, ["--version"], { encoding: "utf8" });
    expect({ status: out.status, stdout: out.stdout, stderr: out.stderr }).toEqual({
      status: 0,
      stdout: `${VERSION}\n`,
      stderr: "",
    });
  });

  it("is the only executable the build leaves in dist/src/cli", () => {
    const executables = execFileSync("find", [join(REPO, "dist"), "-type", "f", "-perm", "-u+x"], {
      encoding: "utf8",
    })
      .split("\n")
      .filter(Boolean)
      .map((file) => file.slice(REPO.length));
    expect(executables).toEqual([pkg.bin.sysprompt]);
  });
});
