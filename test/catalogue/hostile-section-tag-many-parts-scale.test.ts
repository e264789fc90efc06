import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev103a F2 (high): a trusted project's section `tag:` of 15,000 one-letter parts
// (`q_j_k_…`, 30 KB, under the front matter's 32 KB cap) kept a render busy some 6 s a file:
// `nearReserved` (src/sections/reserved-tags.ts) reads every run of parts up to twice the longest
// reserved key's letters, each run's key read anew, some 70 runs a part. An element's name is
// never kilobytes: a tag longer than MAX_TAG_LENGTH is held unread, as a reserved one is.

/** A tag of `parts` one-letter parts drawn from a few letters (distinct runs), seeded. */
function manyParts(parts: number, seed: number): string {
  let x = seed;
  const letters = "qjkvwxz";
  const out: string[] = [];
  for (let i = 0; i < parts; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(letters[x % letters.length] ?? "q");
  }
  return out.join("_");
}

/** Far above the render with the tags held (0.3-1 s under load), below the 18 s three files took before. */
const BOUND_MS = 6000;

describe("hostile repository: a section tag of thousands of parts", () => {
  it("three 30 KB tags: the render is not kept busy, each section printed under another tag, said", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "home/.pi/agent/AGENTS.md": "Yours.\n",
    };
    for (let k = 1; k <= 3; k++)
      files[`project/.pi/sections/team${k}.md`] =
        `---\ntag: ${manyParts(15_000, k)}\n---\nHello ${k}\n`;
    writeFiles(root, files);
    const { cpuMs, value: r } = await cpuTimed(() =>
      renderSystemPrompt({
        cwd: join(root, "project"),
        home: join(root, "home"),
        agentDir: join(root, "home/.pi/agent"),
        projectTrusted: true,
        deadlineMs: 60_000,
      }),
    );
    for (let k = 1; k <= 3; k++) {
      expect(r.text).toContain(`<project_team${k}>\nHello ${k}`);
      expect(r.text).not.toContain(manyParts(15_000, k).slice(0, 200));
    }
    const held = r.diagnostics.filter((d) => d.code === "section-tag-reserved");
    expect(held).toHaveLength(3);
    expect(held[0]?.message).toContain("longer than 128 characters");
    expect(cpuMs).toBeLessThan(BOUND_MS);
  });
});
