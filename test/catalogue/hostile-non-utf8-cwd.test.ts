import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A working folder whose name is not UTF-8 (a checkout's folder named in
// Latin-1) reaches Node as text with U+FFFD for its bytes, a path no call can
// open: the CLI said "there is no folder at …", sending the user looking for a
// typo. Review of issue 24 (lows). Now it says the name is not UTF-8, exit 2.

/** A folder named `bad<0xff>` in a temp folder; returns its name as process.cwd() gives it. */
function nonUtf8Folder(): string {
  const root = tempDir();
  mkdirSync(Buffer.concat([Buffer.from(join(root, "bad")), Buffer.from([0xff])]));
  return join(root, "bad\uFFFD");
}

const SAYS = "the path is not UTF-8";

describe("hostile-non-utf8-cwd: a working folder whose name is not UTF-8 is said to be so", () => {
  it("the CLI exits 2 and says the name is not UTF-8", async () => {
    const cwd = nonUtf8Folder();
    let stderr = "";
    const code = await run(["render"], {
      stdout: () => {},
      stderr: (t) => {
        stderr += t;
      },
      cwd,
      env: {},
      home: join(cwd, "..", "home"),
    });
    expect(code).toBe(2);
    expect(stderr).toContain(`cwd: ${SAYS}`);
    expect(stderr).not.toContain("there is no folder");
  });

  it("the library's error says so too; a missing UTF-8 folder is still 'no folder'", async () => {
    const cwd = nonUtf8Folder();
    const root = join(cwd, "..");
    await expect(renderSystemPrompt(pinned(root, { cwd }))).rejects.toThrow(SAYS);
    await expect(renderSystemPrompt(pinned(root, { cwd: join(root, "gone") }))).rejects.toThrow(
      "there is no folder",
    );
  });
});
