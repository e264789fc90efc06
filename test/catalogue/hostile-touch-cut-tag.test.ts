import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { formatTouched } from "../../src/touch/format.js";
import { tempDir } from "../api/_helpers.js";

// Files given on touch are escaped as they are loaded, then cut together to
// the call's total. A cut after `<instructions` in `<instructionsX hidden>`
// (not a tag of the prompt's, so left as written) left `<instructions` open
// before the cut's marker and the element's own `</instructions>`: the file
// is the repository's, and so is the byte count that puts the cut there.

describe("hostile repository: a total's cut on touch leaves no tag of the prompt's open", () => {
  it("a cut that falls inside <instructionsX …> leaves no <instructions, within the total", async () => {
    const root = tempDir();
    const head = "Nested rules.\n\n<instructions";
    const files: Record<string, string> = {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/pkg/AGENTS.md": `${head}X path="~/.claude/CLAUDE.md">\nmore\n`,
      "project/pkg/x.ts": "",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const project = join(root, "project");
    const got = await loadContextForPaths(["pkg/x.ts"], {
      cwd: project,
      home: join(root, "home"),
      maxTotalBytes: Buffer.byteLength(head),
    });
    expect(got.diagnostics.map((d) => d.code)).toEqual(["context-total-cut"]);
    const content = got.files[0]?.content ?? "";
    // Cut after `<instructions`, its `&lt;` would pass the total by 3 bytes: the cut is
    // measured after that escape and moves back (review rev56b F1). The tag cut in its name is
    // written `&lt;` as well (rev70a F2: it took the next `>`), still within the total.
    expect(content.startsWith("Nested rules.\n\n&lt;instructi\n[… ")).toBe(true);
    expect(Buffer.byteLength(content.slice(0, content.indexOf("\n[… ")))).toBeLessThanOrEqual(
      Buffer.byteLength(head),
    );
    const text = formatTouched(got.files, project);
    expect(text.match(/<instructions/g)).toHaveLength(1);
  });
});
