import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// A rule file swapped for a link between the check that found it a regular
// file inside the project and the read (#24): the file system is wrapped so
// that, once discovery has resolved the file, it is replaced by a link into
// the home folder, exactly in that gap. Before the door the read followed
// the link (no O_NOFOLLOW, no second check); now it is refused.

const MARK = "MARKER-SECRET";

/** Armed swaps: once this path is resolved, it becomes a link to that target. Each fires once. */
const swaps = vi.hoisted(() => new Map<string, string>());

vi.mock("../../src/_io.js", async (importOriginal) => {
  const io = await importOriginal<typeof import("../../src/_io.js")>();
  const realpath = async (path: string) => {
    const real = await io.realpath(path);
    const target = swaps.get(path);
    if (target !== undefined) {
      swaps.delete(path);
      rmSync(path);
      symlinkSync(target, path);
    }
    return real;
  };
  return { ...io, realpath };
});

const cases: CatalogueCase[] = [
  {
    name: "door-rule-swapped-for-a-link",
    layout: [
      ["home/.ssh/id_rsa", `${MARK} ssh private key\n`],
      ["project/.cursorrules", "Use tabs.\n"],
    ],
    bad: ["project/.cursorrules"],
    before: (root) => {
      swaps.set(join(root, "project/.cursorrules"), join(root, "home/.ssh/id_rsa"));
    },
    expected: (root) => [
      diag(
        "warning",
        "rule-refused",
        `rule file not read: it resolves to ${join(root, "home/.ssh/id_rsa")}, outside the project root ${join(root, "project")}`,
        join(root, "project/.cursorrules"),
      ),
    ],
    verify: (bad: Rendered) => {
      expect(swaps.size).toBe(0);
      expect(bad.result.text).not.toContain(MARK);
    },
  },
];

describe("catalogue: a repository file swapped for a link between check and open", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined));
});
