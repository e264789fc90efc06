import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// kit46's walk of a link's target took its names one at a time by copying the rest of the list
// (quadratic), followed each link of a chain again for every kit link before it, and neither
// charged `.` and `..` to its budget nor heard the deadline on them; the walk of a path you name
// heard no deadline at all. A kit whose links are padded with `./` (`l1 -> l2/./././…`, 20 links
// of 1,000 `./`, all within the kit) held `--append-system-prompt ~/prompt-kit/base.md` for over
// 18 s of CPU at a 3 s deadline; imported by your AGENTS.md, the context step missed the deadline
// and your file was lost. Now the walk is linear (a list taken from its head, each link followed
// once), every name is charged, and every walk hears the render's deadline (a named path's once
// it has done more than an ordinary path's work). Review rev47a F1 (high), F2 (medium).

const LINKS = 14;
const DOTS = 1000;

/** A repository at `dir`: a `.git` folder git would take. */
function repository(dir: string): void {
  mkdirSync(join(dir, ".git"), { recursive: true });
  writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
}

/** The kit ~/src/prompt-kit: `base.md -> l1/./…/x.md`, `l1 -> l2/./…`, …, `lN -> d/./…`, all within it. */
function paddedKit(root: string): string {
  const kit = join(root, "home", "src", "prompt-kit");
  repository(kit);
  mkdirSync(join(kit, "d"));
  writeFileSync(join(kit, "d", "x.md"), "KIT-BASE-MARKER\n");
  const pad = "./".repeat(DOTS);
  for (let i = 1; i <= LINKS; i++) {
    symlinkSync(i < LINKS ? `l${i + 1}/${pad}` : `d/${pad}`, join(kit, `l${i}`));
  }
  symlinkSync(`l1/${pad}x.md`, join(kit, "base.md"));
  return kit;
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

describe("hostile-kit-link-dots-scale: a kit's links padded with ./ cost a walk linear in their names", () => {
  it("named: --append-system-prompt ~/src/prompt-kit/base.md is read, its walk cheap", async () => {
    const root = tempDir();
    paddedKit(root);
    const start = process.cpuUsage();
    const result = await renderSystemPrompt(
      pinned(root, { appendSystemPrompt: "~/src/prompt-kit/base.md", deadlineMs: 20_000 }),
    );
    // Before: 5-6 s of CPU (14 links of 1,000 `./`); now some tenths of a second.
    expect(cpuSeconds(start)).toBeLessThan(1.5);
    expect(result.text).toContain("KIT-BASE-MARKER");
  });

  it("imported by your AGENTS.md: your file, the kit's text and the project's file are all in", async () => {
    const root = tempDir();
    paddedKit(root);
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(join(root, "agent", "AGENTS.md"), "MY-RULES-MARKER\n@~/src/prompt-kit/base.md\n");
    mkdirSync(join(root, "project"), { recursive: true });
    writeFileSync(join(root, "project", "AGENTS.md"), "PROJECT-MARKER\n");
    const start = process.cpuUsage();
    const result = await renderSystemPrompt(pinned(root, { deadlineMs: 20_000 }));
    expect(cpuSeconds(start)).toBeLessThan(1.5);
    expect(result.text).toContain("MY-RULES-MARKER");
    expect(result.text).toContain("KIT-BASE-MARKER");
    expect(result.text).toContain("PROJECT-MARKER");
  });

  it("a named path's walk hears the deadline once past an ordinary path's work: refused, named", async () => {
    const root = tempDir();
    paddedKit(root);
    writeFileSync(join(root, "home", "notes.md"), "NOTES-MARKER\n");
    const start = process.cpuUsage();
    const refused = await renderSystemPrompt(
      pinned(root, { appendSystemPrompt: "~/src/prompt-kit/base.md", deadlineMs: 0 }),
    ).then(
      (r) => r.text,
      (e: Error) => `refused: ${e.message}`,
    );
    expect(cpuSeconds(start)).toBeLessThan(1.5);
    // Since fx92d the refusal names the option and quotes the path you gave ("…base.md": …).
    expect(refused).toMatch(/^refused: .*base\.md"?: the render's deadline passed/);
    // An ordinary file you name is read at the same deadline.
    const read = await renderSystemPrompt(
      pinned(root, { appendSystemPrompt: "~/notes.md", deadlineMs: 0 }),
    );
    expect(read.text).toContain("NOTES-MARKER");
  });
});
