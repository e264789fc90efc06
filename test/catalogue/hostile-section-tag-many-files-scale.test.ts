import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nameKey, SkeletonReader } from "../../src/_prompt-text.js";
import { renderSystemPrompt } from "../../src/index.js";
import { heldProjectTags, TAG_READ_BUDGET } from "../../src/sections/reserved-tags.js";
import type { SectionTemplate } from "../../src/sections/types.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev104b F1 (high): a trusted project's 300 section files, each with a `tag:` of
// 64 one-letter parts (127 characters, under MAX_TAG_LENGTH), kept a render busy ~2.5 s of CPU
// past the deadline (8 s with 1,000 files): `nearReserved` (src/sections/reserved-tags.ts) joined
// and keyed anew every run of parts, some 2,000 runs a tag, and the 128-character limit was per
// tag with none per render. A tag is now read in time linear in its length (its parts keyed once,
// runs walked against the reserved keys), and one budget per render bounds the reading: a tag
// read past it is held unread (`section-tag-reserved`, said not read).

const FILES = 300;

/** A tag of 64 one-letter parts, seeded (the review's: `x_q_g_o_…`, cut to 128 characters). */
function manyParts(seed: number): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < 64; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(String.fromCharCode(97 + ((x >>> 8) % 26)));
  }
  return out.join("_").slice(0, 128);
}

/** A trusted project of FILES sections, each with a tag of many parts or none. */
function project(tags: boolean): string {
  const root = tempDir();
  const files: Record<string, string> = {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "hi\n",
    "home/.pi/agent/AGENTS.md": "Yours.\n",
  };
  for (let i = 0; i < FILES; i++)
    files[`project/.pi/sections/s${i}.md`] = tags
      ? `---\norder: ${i + 1000}\ntag: ${manyParts(i + 1)}\n---\nx${i}\n`
      : `---\norder: ${i + 1000}\n---\nx${i}\n`;
  writeFiles(root, files);
  return root;
}

function render(root: string) {
  return renderSystemPrompt({
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "home/.pi/agent"),
    projectTrusted: true,
    deadlineMs: 60_000,
  });
}

describe("hostile repository: many section files with tags of many parts", () => {
  it("300 tags of 64 parts cost the render under 3x the same files with no tags", async () => {
    const plain = project(false);
    const tagged = project(true);
    await render(plain); // warm: the modules and the JIT
    const control = await cpuTimed(() => render(plain));
    const { cpuMs, value: r } = await cpuTimed(() => render(tagged));
    // Each tag is read or held, and a held one is said.
    const held = r.diagnostics.filter((d) => d.code === "section-tag-reserved");
    for (const d of held) expect(d.path).toMatch(/s\d+\.md$/);
    expect(r.text).toContain(`<${manyParts(1)}>\nx0\n`);
    expect(cpuMs).toBeLessThan(3 * Math.max(control.cpuMs, 200));
  });

  it("past one render's reading of tags, each tag left is held unread, said", async () => {
    // A tag of 64 parts costs some 500 units: enough of them to spend the budget.
    const count = Math.ceil(TAG_READ_BUDGET / 250);
    const templates = Array.from({ length: count }, (_, i) => ({
      name: `s${i}`,
      meta: { tag: manyParts(i + 1) },
      body: "x",
      bodyLine: 1,
      source: { layer: "project", path: `/p/.pi/sections/s${i}.md` },
    })) as unknown as SectionTemplate[];
    const { cpuMs, value: held } = await cpuTimed(() => heldProjectTags(templates));
    const unread = held.diagnostics.filter((d) => d.message.includes("not read"));
    expect(unread.length).toBeGreaterThan(0);
    const last = held.templates.at(-1);
    expect(last?.meta.tag).toMatch(/^project_section_[0-9a-f]{8}$/);
    expect(unread.at(-1)?.path).toBe(`/p/.pi/sections/s${count - 1}.md`);
    expect(unread.at(-1)?.message).toContain(`<${manyParts(count)}> element, not read`);
    // Some 0.1-0.2 s; before, 2,000 such tags took 17 s.
    expect(cpuMs).toBeLessThan(3000);
  });

  it("a section whose hash reads as a host family's name is given another hash, and the reading ends", () => {
    // `project_section_1d3b8484` (s1618's hash) reads `ide…`: before, a number was put after it
    // until it was not near, and none was: the 2,000-section case above never returned (CI
    // stopped at its 5,400 s). Past the budget every section is given its hash, s1618 among them.
    const count = Math.ceil(TAG_READ_BUDGET / 250);
    const templates = Array.from({ length: count }, (_, i) => ({
      name: i === count - 1 ? "s1618" : `s${i}`,
      meta: { tag: manyParts(i + 1) },
      body: "x",
      bodyLine: 1,
      source: { layer: "project", path: `/p/.pi/sections/s${i}.md` },
    })) as unknown as SectionTemplate[];
    const held = heldProjectTags(templates);
    const tag = held.templates.at(-1)?.meta.tag;
    expect(tag).toMatch(/^project_section_[0-9a-f]{8}$/);
    expect(tag).not.toBe("project_section_1d3b8484");
    expect(held.diagnostics.at(-1)?.message).toContain(`as <${String(tag)}>`);
  });

  it("the letter-at-a-time reading of a tag's runs is nameKey's skeleton", () => {
    // Letters that begin, end or make pairs (`rn`, `vv`, `cl`) and the look-alike digits.
    const letters = "rnvclio0135sx";
    let x = 11;
    for (let n = 0; n < 5000; n++) {
      let name = "";
      for (let i = 0; i < 1 + (n % 12); i++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        name += letters[(x >>> 8) % letters.length];
      }
      const reader = new SkeletonReader();
      let read = "";
      for (const c of name) read += reader.read(c);
      expect(read + reader.held, name).toBe(nameKey(name));
    }
  });
});
