import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { until } from "../author/_until.js";
import { cli, hostileProject, refusal } from "./_output-link.js";

// hostile-output-link-above for `watch --export --out` and `snapshot DIR
// --update` (the slow tier: a watch started and stopped, about a second; a
// snapshot run, 0.8 s): where they write is decided by the rule of `render -o`
// and `export --out` (src/_output-target.ts).

describe("hostile-output-link-above: watch's export and snapshot's goldens", () => {
  it("watch --export --out ../… from a subfolder exports nothing through the link", async () => {
    const root = hostileProject();
    const controller = new AbortController();
    const seen = { stdout: "" };
    const done = cli(
      root,
      join(root, "p/src"),
      // An instructions file (a file of `.claude/commands/` is claude-code's configuration, which
      // export refuses before it looks at the link: review rev46a F2).
      ["watch", "--export", "--agent", "codex", "--out", "../build/.claude/CLAUDE.md"],
      { signal: controller.signal, seen },
    );
    // The first render's write is said on stdout, refused or not.
    await until(() => /^(not exported:|exported )/m.test(seen.stdout), "the first export").finally(
      () => controller.abort(),
    );
    const out = await done;
    expect(out.stdout).toContain(`not exported: export: ${refusal(root)}\n`);
    expect(existsSync(join(root, "home/.claude/CLAUDE.md"))).toBe(false);
  });

  it("snapshot --update of a folder named through the project's link writes no golden there", async () => {
    // `p/shared` leads to a folder outside the project that holds a scenario: its goldens would
    // be written there, as `render -o` wrote through `p/build`.
    const root = hostileProject();
    mkdirSync(join(root, "elsewhere/snaps"));
    writeFileSync(join(root, "elsewhere/snaps/a.scenario.yaml"), "tools: [read]\n");
    symlinkSync(join(root, "elsewhere"), join(root, "p/shared"));
    // And with HOME inside the checkout (p/.home, as in CI): the checkout is still the project.
    mkdirSync(join(root, "p/.home"));
    const homes = [{}, { home: join(root, "p/.home") }];
    for (const [named, home] of homes.flatMap((h) =>
      ["../shared/snaps", join(root, "p/shared/snaps")].map((n) => [n, h] as const),
    )) {
      const out = await cli(root, join(root, "p/src"), ["snapshot", named, "--update"], {
        pinned: false,
        ...home,
      });
      expect([out.code, out.stderr]).toEqual([
        2,
        `sysprompt: ${join(root, "p/shared/snaps")}: its scenario folder is really ${join(root, "elsewhere/snaps")}, outside ${join(root, "p")} (a link leads there); snapshot reads and writes goldens only in a folder inside where it is named; name the real folder if you mean it\nUsage: sysprompt snapshot [options] [dir]; see \`sysprompt snapshot --help\`.\n`,
      ]);
    }
    expect(readdirSync(join(root, "elsewhere/snaps"))).toEqual(["a.scenario.yaml"]);
  });
});
