import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev66c F4 (low, display). An always rule named `d owner﹦user` printed
// `name="d owner&#38;lt;user"`: the name's `﹦` before `user` was written `&lt;`
// (a symbol before a chat role's name is an opener), and the owner mark's hold
// then read that reference's `&` as the mark's `=` and wrote it `&#38;`. A
// reference to `<`, `>` or `&` is now left as written: the name reads
// `owner&lt;user`, escaped once, and the raw mark is held as before (since
// rev68f F1 the mark is read first: `owner&#61;user`, once too).

describe("hostile repository: an always rule's name with an `=` look-alike before `user`", () => {
  it("is escaped once, and a raw mark in it still held", async () => {
    const root = tempDir();
    const rules = ["d owner﹦user", "i owner≡user", "c owner=user"];
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      ...Object.fromEntries(
        rules.map((n) => [
          `project/.cursor/rules/${n}.mdc`,
          `---\nalwaysApply: true\n---\nbody ${n}\n`,
        ]),
      ),
    });
    const { text } = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    const names = [...text.matchAll(/<rule name="([^"]*)"/g)].map((m) => m[1]);
    // Since rev68f F1 the mark is held first, where every reader passes (escapeWrapperTags), as
    // a file's text had it: the look-alike is the mark's `=`, written as a reference once.
    expect(names).toEqual(["c owner&#61;user", "d owner&#61;user", "i owner&#8801;user"]);
    expect(text).not.toContain("&#38;lt;");
  });
});
