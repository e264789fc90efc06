import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { pinned, tempDir } from "../api/_helpers.js";

// After its limits, `check` compares each user or project section carrying
// `ejected-from:` with the builtin it was copied from, and says nothing of a
// section that calls `{{> base}}`. It asked that of a Handlebars parse of
// every such section, past check's tag total and its 20 s of loading, with no
// limit of its own. Review rev43d F1: 279 distinct sections of 4,285 tags,
// each with `ejected-from:` (check-templates-cut after two): 20.4 s of CPU,
// 2.8 s without the record. The question is now answered by the engine's
// linear scan of the tags: no template is parsed for it.

const parsed = new Map<string, number>();
vi.mock("../../src/engine/index.js", async (importOriginal) => {
  const engine = await importOriginal<typeof import("../../src/engine/index.js")>();
  return {
    ...engine,
    parseTemplate: (source: string) => {
      parsed.set(source, (parsed.get(source) ?? 0) + 1);
      return engine.parseTemplate(source);
    },
  };
});

describe("hostile repository: check's drift step over many ejected sections", () => {
  it("parses no section for it: each template is parsed at most once, by the static check", async () => {
    const root = tempDir();
    const sections = join(root, "project", ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    const count = 15;
    const bodies: string[] = [];
    for (let i = 0; i < count; i++) {
      const body = `x${i}${"{{a.b}}".repeat(4285)}`;
      bodies.push(body);
      writeFileSync(
        join(sections, `s${String(i).padStart(2, "0")}.md`),
        `---\norder: ${i}\nejected-from: sha256:000000000000\n---\n${body}`,
      );
    }
    const report = await checkProject(pinned(root));
    // The drift is still told for every one of them (no builtin has their names).
    const drift = report.diagnostics.filter((d) => d.code === "section-drift");
    expect(drift).toHaveLength(count);
    expect(report.diagnostics.map((d) => d.code)).toContain("check-templates-cut");
    const times = bodies.map((b) => parsed.get(b) ?? 0);
    // Before: the sections the static check parsed twice, and every other one once (15 parses).
    expect(Math.max(...times)).toBe(1);
    expect(times.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2);
  }, 120_000);
});
