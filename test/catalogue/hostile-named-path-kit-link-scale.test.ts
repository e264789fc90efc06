import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { gitRepository } from "./_nested.js";

// kit43's walk judges each link of a named path (or of an import of your AGENTS.md) in the
// innermost repository of its real folder, climbing from it folder by folder, five look-ups a
// folder, each on the full path: O(depth²) system calls, never hearing the deadline. A kit whose
// `base.md` starts a chain of links zig-zagging through subtrees 800 folders deep held a render for
// 22.7 s of CPU (39 links; 0.84 s before kit43), your AGENTS.md lost to step-timeout, and a library
// render kept working 11 s after it returned. Now the walk of one path has a bound on its work (the
// folders its look-ups pass through) and hears the render's signal; past them the path is refused.
// Review rev44c F4 (high).

const DEPTH = 400;
const LINKS = 3;

/** The kit ~/src/prompt-kit: `base.md` leads through LINKS subtrees DEPTH deep to `end.md`, all within the kit. */
function deepKit(root: string): string {
  const kit = join(root, "home", "src", "prompt-kit");
  gitRepository(kit);
  writeFileSync(join(kit, "end.md"), "CHAIN-END-MARKER\n");
  const down = "d/".repeat(DEPTH);
  const up = "../".repeat(DEPTH + 1);
  for (let i = 1; i <= LINKS; i++) mkdirSync(join(kit, `s${i}`, down), { recursive: true });
  symlinkSync(`s1/${down}l1`, join(kit, "base.md"));
  for (let i = 1; i <= LINKS; i++) {
    const target = i < LINKS ? `${up}s${i + 1}/${down}l${i + 1}` : `${up}end.md`;
    symlinkSync(target, join(kit, `s${i}`, `${down}l${i}`));
  }
  return kit;
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

describe("hostile-named-path-kit-link-scale: a kit's chain of links through deep folders is refused, its cost bounded", () => {
  it("named: --append-system-prompt ~/src/prompt-kit/base.md is refused as too deep, quickly", async () => {
    const root = tempDir();
    deepKit(root);
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(join(root, "agent", "AGENTS.md"), "MY-RULES-MARKER\n");
    const start = process.cpuUsage();
    const refused = await renderSystemPrompt(
      pinned(root, { appendSystemPrompt: "~/src/prompt-kit/base.md" }),
    ).then(
      (r) => r.text,
      (e: Error) => `refused: ${e.message}`,
    );
    expect(cpuSeconds(start)).toBeLessThan(1.5);
    expect(refused).not.toContain("CHAIN-END-MARKER");
    expect(refused).toMatch(/^refused: .*too deep to check/);
  });

  it("imported by your AGENTS.md: the import is refused, located; your own text stays", async () => {
    const root = tempDir();
    deepKit(root);
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(join(root, "agent", "AGENTS.md"), "MY-RULES-MARKER\n@~/src/prompt-kit/base.md\n");
    const start = process.cpuUsage();
    const result = await renderSystemPrompt(pinned(root, { deadlineMs: 20_000 }));
    expect(cpuSeconds(start)).toBeLessThan(1.5);
    expect(result.text).toContain("MY-RULES-MARKER");
    expect(result.text).not.toContain("CHAIN-END-MARKER");
    const refused = result.diagnostics.find((d) => d.code === "import-outside");
    expect(refused?.message).toContain("too deep to check");
    expect(refused?.path).toBe(join(root, "agent", "AGENTS.md"));
  });

  it("a kit link through a few ordinary folders is still followed", async () => {
    const root = tempDir();
    const kit = join(root, "home", "src", "prompt-kit");
    gitRepository(kit);
    const deep = join(kit, ...Array.from({ length: 30 }, () => "d"));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, "end.md"), "SHALLOW-END-MARKER\n");
    symlinkSync(`${"d/".repeat(30)}end.md`, join(kit, "base.md"));
    const result = await renderSystemPrompt(
      pinned(root, { appendSystemPrompt: "~/src/prompt-kit/base.md" }),
    );
    expect(result.text).toContain("SHALLOW-END-MARKER");
  });
});
