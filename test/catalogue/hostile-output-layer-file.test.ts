import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cloneBesideProject, fromEvil } from "./_output-link.js";

// Found by fixer fx99e (medium): from an untrusted clone out of your home, `render --untrusted -o
// /other/proj/.pi/SYSTEM.md` (and `APPEND_SYSTEM.md`) was written, exit 0. Projects are trusted by
// default, so that project's own render then took the repository's text as its whole system
// prompt (SYSTEM.md) or appended it. Now a target out of the project being rendered that is a file
// the project layer (`.pi`) is read for (its custom files, `sysprompt.yaml`, anything below its
// folders) is refused as rev98a F3's rule places are, `--force` writing it with a warning.

const setup = () => cloneBesideProject("wk/proj/.pi");

const LAYER_FILES = [
  ".pi/SYSTEM.md",
  ".pi/APPEND_SYSTEM.md",
  ".pi/SYSTEM_TEMPLATE.md",
  ".pi/sysprompt.yaml",
  ".pi/general-rules.md",
  ".pi/sections/rules@small.md",
  ".pi/partials/x.md",
  ".pi/prompts/x.md",
  ".pi/skills/x/SKILL.md",
  ".pi/rules/x.md",
];

describe("hostile-output-layer-file: -o/--out into another project's .pi layer", () => {
  it.each(LAYER_FILES)("render --untrusted -o <other project>/%s: refused, exit 2", async (rel) => {
    const root = setup();
    const target = join(root, "wk/proj", rel);
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
    expect(out.code, out.stderr).toBe(2);
    expect(existsSync(target)).toBe(false);
  });

  it.each([".pi/SYSTEM.md", ".pi/APPEND_SYSTEM.md", ".pi/prompts/x.md"])(
    "%s: the refusal says why, with the --force escape",
    async (rel) => {
      const root = setup();
      const target = join(root, "wk/proj", rel);
      const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toContain(
        `and sysprompt and pi read ${rel} as the project layer's own file in ${join(root, "wk/proj")}`,
      );
      expect(out.stderr).toContain("pass --force to write it there knowingly");
    },
  );

  it.each([".pi/SYSTEM_TEMPLATE.md", ".pi/general-rules.md", ".pi/sections/x.md"])(
    "%s: refused as before by pi's folder rule, which --force does not pass",
    async (rel) => {
      const root = setup();
      const target = join(root, "wk/proj", rel);
      const out = await fromEvil(root, ["render", "--untrusted", "-o", target, "--force"]);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toContain("pi's own configuration");
      expect(existsSync(target)).toBe(false);
    },
  );

  it("export --out is refused the same way", async () => {
    const root = setup();
    const target = join(root, "wk/proj/.pi/SYSTEM.md");
    const out = await fromEvil(root, [
      "export",
      "--untrusted",
      "--agent",
      "claude-code",
      "--out",
      target,
    ]);
    expect(out.code, out.stderr).toBe(2);
    expect(existsSync(target)).toBe(false);
  });

  it("--force writes it knowingly, with a warning", async () => {
    const root = setup();
    const target = join(root, "wk/proj/.pi/SYSTEM.md");
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target, "--force"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain("sysprompt: WARNING: ");
    expect(out.stderr).toContain("written there as --force asks");
    expect(readFileSync(target, "utf8")).toContain("REPO-WORDS");
  });

  it("in the project it is the project's own layer file: written as before", async () => {
    const root = setup();
    for (const rel of [".pi/SYSTEM.md", ".pi/APPEND_SYSTEM.md"]) {
      const out = await fromEvil(root, ["render", "--untrusted", "-o", rel]);
      expect([rel, out.code, out.stderr]).toEqual([rel, 0, expect.any(String)]);
      expect(readFileSync(join(root, "evil", rel), "utf8")).toContain("REPO-WORDS");
    }
  });

  it("a file of another name in a .pi folder's parent stays as before: proj/notes/SYSTEM.md written", async () => {
    const root = setup();
    const target = join(root, "wk/proj/notes/SYSTEM.md");
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
    expect(out.code, out.stderr).toBe(0);
  });
});
