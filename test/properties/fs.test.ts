import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadContextFiles } from "../../src/gather/context/context-files.js";
import { capLines, ELISION_MARKER } from "../../src/gather/tree/_tree-layout.js";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { tempDir } from "../api/_helpers.js";

// Properties that need a file system: random small projects are written to a
// temp folder for each run, so the runs are few (tens) and the trees small.

/** Text that must never reach a project's context files: it lies outside the project root. */
const OUTSIDE = "SECRET-OUTSIDE";
const HOME = "SECRET-HOME";

describe("import expansion", () => {
  /** Imports of every kind (inside, .., absolute, ~/, through links, cycles) and text between. */
  const importing = fc
    .array(
      fc.constantFrom(
        ...["@f0.md", "@f1.md", "@./sub/f2.md", "@sub/../f3.md", "@AGENTS.md", "@../f0.md"],
        ...["@../outside.md", "@../../outside.md", "@~/home.md", "@link.md", "@up/outside.md"],
        ...["@sub/up2/outside.md", "x", " ", "\n", "`", "```\n", "<!--", "-->"],
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(""));

  it("always terminates and never leaves the project root", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(importing, { minLength: 5, maxLength: 5 }), async (texts) => {
        const root = tempDir();
        const project = join(root, "project");
        const [agents = "", f0 = "", f1 = "", f2 = "", f3 = ""] = texts;
        const files: Record<string, string> = {
          "project/AGENTS.md": agents,
          "project/f0.md": f0,
          "project/f1.md": f1,
          "project/sub/f2.md": f2,
          "project/f3.md": f3,
          "outside.md": OUTSIDE,
          "home/home.md": HOME,
        };
        for (const [path, text] of Object.entries(files)) {
          mkdirSync(dirname(join(root, path)), { recursive: true });
          writeFileSync(join(root, path), text);
        }
        mkdirSync(join(project, ".git"));
        symlinkSync("../outside.md", join(project, "link.md"));
        symlinkSync("..", join(project, "up"));
        symlinkSync("../..", join(project, "sub", "up2"));
        const started = performance.now();
        const { files: loaded } = await loadContextFiles({
          cwd: project,
          agentDir: join(root, "agent"),
          home: join(root, "home"),
        });
        // Generous: five small files; a loop would never end, and a per-file
        // cap of 100 imports bounds the work long before this.
        expect(performance.now() - started).toBeLessThan(5000);
        for (const file of loaded) {
          expect(file.content).not.toContain(OUTSIDE);
          expect(file.content).not.toContain(HOME);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("workspace tree", () => {
  const TIME = /^ {2,}\S.* {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;
  const RELATIVE = /\b(ago|yesterday|today|now|minutes?|hours?|days?|weeks?)\b/i;

  /** Entries of a small tree: paths up to five deep, from a small pool of names. */
  const entry = fc.tuple(
    fc.array(fc.constantFrom("a", "b", "src", "lib", "x y"), { minLength: 1, maxLength: 5 }),
    fc.constantFrom("file", "dir", "link"),
    // From 1970 to 2100: the past, the far past and the future are all shown the same way.
    fc.integer({ min: 0, max: 4_102_444_800 }),
  );

  it("never exceeds its line cap (but for the root and depth-1 lines) and never shows a relative time", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { maxLength: 25 }),
        fc.record({
          maxDepth: fc.integer({ min: 1, max: 4 }),
          maxEntries: fc.integer({ min: 1, max: 6 }),
          maxLines: fc.integer({ min: 1, max: 30 }),
        }),
        fc.boolean(),
        async (entries, limits, pinnedTime) => {
          const root = join(tempDir(), "project");
          mkdirSync(root);
          for (const [parts, kind, seconds] of entries) {
            const path = join(root, ...parts);
            try {
              mkdirSync(dirname(path), { recursive: true });
              if (kind === "dir") mkdirSync(path, { recursive: true });
              else if (kind === "link") symlinkSync("a", path);
              else writeFileSync(path, "x".repeat(seconds % 3000));
              if (kind !== "link") utimesSync(path, seconds, seconds);
            } catch {
              // A name already taken by another kind of entry: this one is left out.
            }
          }
          const tree = await buildWorkspaceTree(root, {
            ...limits,
            ...(pinnedTime ? { mtime: "2026-01-10T09:00:00Z" } : {}),
          });
          const lines = tree.rendered.split("\n");
          if (lines.length > limits.maxLines) {
            // Only lines the cap never drops may be over it: the root, depth 1, the marker.
            expect(lines.filter((l) => l.startsWith("    "))).toEqual([]);
          }
          // Left out: lines the cap cut (the marker ends the tree) or entries a folder elided.
          expect(tree.truncated).toBe(
            lines.at(-1) === ELISION_MARKER ||
              lines.some((l) => /^ *… (at least )?\d+ more$/.test(l)),
          );
          const entryLines = lines
            .slice(1)
            .filter((l) => l !== ELISION_MARKER && !/^ *… (at least )?\d+ more$/.test(l));
          for (const line of entryLines) expect(line).toMatch(TIME);
          expect(tree.rendered).not.toMatch(RELATIVE);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("capLines keeps every line under the cap, dropping the deepest first", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 40 }),
        (depths, maxLines) => {
          const lines = [
            { depth: 0, text: "root/" },
            ...depths.map((depth, i) => ({ depth, text: `${i}` })),
          ];
          const capped = capLines(lines, maxLines);
          const shallow = lines.filter((l) => l.depth <= 1).length;
          expect(capped.lines.length).toBeLessThanOrEqual(Math.max(maxLines, shallow + 1));
          // Kept lines keep their order, and a kept line's deeper neighbours went first.
          const kept = capped.lines.filter((l) => l.text !== ELISION_MARKER);
          expect(lines.filter((l) => kept.includes(l))).toEqual(kept);
          if (capped.truncated) {
            const deepestKept = Math.max(0, ...kept.map((l) => l.depth));
            const dropped = lines.filter((l) => !kept.includes(l));
            expect(dropped.every((l) => l.depth >= Math.min(deepestKept, 2))).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
