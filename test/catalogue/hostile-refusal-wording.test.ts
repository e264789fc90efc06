import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { readTextOrPath } from "../../src/locate/text-or-path.js";
import { tempDir } from "../api/_helpers.js";

// Review rev53d F6: two refusals said the wrong thing. A link loop named by `--system-prompt`
// was "there is no file at …"; `eject --force` onto a project's FIFO ended with "a project's
// files are never written through a link", which names no FIFO.

describe("hostile-refusal-wording: a refusal names what is there", () => {
  it("a link loop named as the base prompt is said to be a link loop", async () => {
    const dir = tempDir();
    symlinkSync("loop2.md", join(dir, "loop1.md"));
    symlinkSync("loop1.md", join(dir, "loop2.md"));
    const error = await readTextOrPath("prompts/../loop1.md", dir, "--system-prompt").catch(
      (e: unknown) => e,
    );
    expect(String(error)).toContain("is a link loop");
    expect(String(error)).not.toContain("no file at");
  });

  it("eject --force onto a FIFO: the summary does not blame a link alone", async () => {
    const root = tempDir();
    const sections = join(root, ".pi", "sections");
    mkdirSync(join(root, ".git"), { recursive: true });
    mkdirSync(sections, { recursive: true });
    execFileSync("mkfifo", [join(sections, "rules.md")]);
    let err = "";
    const code = await run(["eject", "rules", "--force"], {
      stdout: () => {},
      stderr: (t) => {
        err += t;
      },
      cwd: root,
      env: {},
      home: join(root, "home"),
      machine: { platform: "linux", arch: "x64" },
    });
    expect(code).toBe(1);
    const summary = err.split("\n").find((l) => l.startsWith("sysprompt: nothing was written"));
    expect(summary).toContain("regular files");
  });
});
