import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cloneBesideProject, fromEvil, REPO_WORDS } from "./_output-link.js";

// Review rev99a F4 (low): rev98a F3 refused `-o` into another project's rule places, but only
// the places of the formats sysprompt declares (RULE_FORMATS). Places other agents load by
// themselves that sysprompt does not read were still written from an untrusted clone, exit 0:
// Goose's `.goosehints`, Junie's `.junie/guidelines.md`, Amazon Q's `.amazonq/rules/`, Trae's
// `.trae/rules/`, and that agent then read the repository's line as the other project's rule.
// Now they are declared as places agents load (UNDECLARED_AGENT_PLACES in
// src/gather/rules/formats.ts), not read, and `-o` into another project's is refused as a
// declared format's is; in the project it is the project's own file, written as before.
// Augment's `.augment/rules/` was refused already by its configuration folder's rule.

const setup = () => cloneBesideProject();

const PLACES = [
  [".junie/guidelines.md", "Junie"],
  [".amazonq/rules/team.md", "Amazon Q"],
  [".amazonq/rules/deep/team.md", "Amazon Q"],
  [".trae/rules/project_rules.md", "Trae"],
  [".openhands/microagents/repo.md", "OpenHands"],
] as const;

describe("hostile-output-undeclared-agent-places: -o into another project's place an agent sysprompt does not read loads", () => {
  it.each(PLACES)(
    "render --untrusted -o <other project>/%s: refused, exit 2",
    async (rel, agent) => {
      const root = setup();
      const target = join(root, "wk/proj", rel);
      const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toContain(
        `and agents load ${rel} by themselves in every project below ${join(root, "wk/proj")} (a place of ${agent}'s rules)`,
      );
      expect(existsSync(target)).toBe(false);
    },
  );

  it(".goosehints out of the project is refused too", async () => {
    const root = setup();
    const target = join(root, "wk/proj/.goosehints");
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target]);
    expect(out.code, out.stderr).toBe(2);
    expect(existsSync(target)).toBe(false);
  });

  it("in the project it is the project's own file: written as before", async () => {
    const root = setup();
    mkdirSync(join(root, "evil/.junie"), { recursive: true });
    const out = await fromEvil(root, ["render", "--untrusted", "-o", ".junie/guidelines.md"]);
    expect(out.code, out.stderr).toBe(0);
    expect(readFileSync(join(root, "evil/.junie/guidelines.md"), "utf8")).toContain(REPO_WORDS);
  });

  it("--force writes it knowingly, with a warning", async () => {
    const root = setup();
    const target = join(root, "wk/proj/.trae/rules/project_rules.md");
    mkdirSync(join(root, "wk/proj/.trae/rules"), { recursive: true });
    const out = await fromEvil(root, ["render", "--untrusted", "-o", target, "--force"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain("written there as --force asks");
  });
});
