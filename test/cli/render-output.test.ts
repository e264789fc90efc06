import {
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli, pinMachine } from "./_run.js";

pinMachine();

describe("sysprompt render -o FILE", () => {
  it("writes what stdout would get to FILE, and prints nothing on stdout", async () => {
    const root = tempDir();
    const plain = await cli(root, ["render"]);
    const result = await cli(root, ["render", "-o", "prompt.md"]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "sysprompt: wrote prompt.md\n" });
    expect(readFileSync(join(root, "project", "prompt.md"), "utf8")).toBe(plain.stdout);
  });

  it("leaves the file alone (same mtime) when the bytes did not change, so watchers do not fire", async () => {
    const root = tempDir();
    await cli(root, ["render", "--output", "prompt.md"]);
    const file = join(root, "project", "prompt.md");
    utimesSync(file, 1_000_000, 1_000_000);
    expect(await cli(root, ["render", "--output", "prompt.md"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "sysprompt: unchanged: prompt.md\n",
    });
    expect(statSync(file).mtimeMs).toBe(1_000_000_000);
    expect((await cli(root, ["render", "-o", "prompt.md", "--model", "m-2"])).stderr).toBe(
      "sysprompt: wrote prompt.md\n",
    );
    expect(statSync(file).mtimeMs).not.toBe(1_000_000_000);
  });

  it("never writes through a link, at the file or on the way: exit 2, the link's target untouched", async () => {
    const root = tempDir();
    mkdirSync(join(root, "home"));
    const bashrc = join(root, "home", ".bashrc");
    writeFileSync(bashrc, "mine\n");
    mkdirSync(join(root, "project"));
    // Not GEMINI.md: that name is a rule file, and a link there gets a warning of its own.
    symlinkSync(bashrc, join(root, "project", "system.md"));
    expect(await cli(root, ["render", "-o", "system.md"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: --output: ${root}/project/system.md: a symbolic link, not a regular file: it is not written through\n`,
    });
    symlinkSync(join(root, "home"), join(root, "project", ".gemini"));
    expect((await cli(root, ["render", "-o", ".gemini/system.md"])).stderr).toBe(
      `sysprompt: --output: ${root}/project/.gemini: a symbolic link, not a folder: nothing is written through it\n`,
    );
    expect([readFileSync(bashrc, "utf8"), readdirSync(join(root, "home"))]).toEqual([
      "mine\n",
      [".bashrc"],
    ]);
  });
});
