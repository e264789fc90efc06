import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SystemPromptOptions } from "../../src/options.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { homeWithKey, KEY, linkKit, rendered } from "./_nested.js";

// Review rev46c. F1 (high): a kit's link was judged on its target with the `..` folded as
// written, before the kit's own links in it were followed. The kit commits `loop -> .` and
// `base.md -> loop/loop/../../.ssh/id_rsa`: folded, that is the kit's missing `.ssh/id_rsa`, so
// the link "led within" the kit; followed (as the kernel does, and as the walk then went), `../..`
// climbs from the kit itself, to ~/.ssh/id_rsa, which was read as your file: imported, named
// through your link, and as your AGENTS.md linked to the kit's file, `--untrusted` too. A second
// shape: `d/up -> ..` and `aws.md -> d/up/../../.aws/credentials`. Now a link's target is followed
// one name at a time, each `..` from the real folder reached. F5 (low): with your home reached
// through a link and your dotfiles outside it, your stowed link's target was taken from the
// link-spelled home, the mirror was missed and your own `@~/notes/n.md` refused.

const AWS = "SECRET-MARKER-AWS";

/** Your home (a key, credentials), your project ~/work/app, and a kit ~/src/prompt-kit whose links climb out through its own. */
function layout(root: string) {
  const home = homeWithKey(root);
  const app = join(home, "work", "app");
  const kit = join(home, "src", "prompt-kit");
  mkdirSync(join(home, ".aws"), { recursive: true });
  writeFileSync(join(home, ".aws", "credentials"), `aws_secret_access_key=${AWS}\n`);
  mkdirSync(join(app, ".git"), { recursive: true });
  mkdirSync(join(kit, ".git"), { recursive: true });
  mkdirSync(join(kit, "d"));
  writeFileSync(join(kit, "plain.md"), "KIT-PLAIN-MARKER\n");
  symlinkSync(".", join(kit, "loop"));
  symlinkSync("loop/loop/../../.ssh/id_rsa", join(kit, "base.md"));
  symlinkSync("..", join(kit, "d", "up"));
  symlinkSync("d/up/../../.aws/credentials", join(kit, "aws.md"));
  linkKit(home, "kit", "../../src/prompt-kit");
  const agent = join(home, ".pi", "agent");
  mkdirSync(agent, { recursive: true });
  return { home, app, kit, agent };
}

describe("hostile-kit-link-dotdot: a kit link's `..` is judged where the link really goes", () => {
  it("F1: imported, named through your link or at its own name, and as your AGENTS.md: refused, --untrusted too", async () => {
    const root = tempDir();
    const { home, app, kit, agent } = layout(root);
    const run = (projectTrusted: boolean, extra: SystemPromptOptions = {}) =>
      rendered(pinned(root, { cwd: app, home, agentDir: agent, projectTrusted, ...extra }));
    for (const projectTrusted of [true, false]) {
      const at = `trusted ${projectTrusted}`;
      writeFileSync(
        join(agent, "AGENTS.md"),
        [
          "MY-RULES-MARKER",
          "@~/.config/sysprompt/kit/base.md",
          "@~/src/prompt-kit/base.md",
          "@~/.config/sysprompt/kit/aws.md",
          "@~/src/prompt-kit/aws.md",
          "@~/.config/sysprompt/kit/nothere/../base.md",
          "@~/.config/sysprompt/kit/plain.md",
          "",
        ].join("\n"),
      );
      const imported = await run(projectTrusted);
      expect(imported, at).toContain("MY-RULES-MARKER");
      expect(imported, at).toContain("KIT-PLAIN-MARKER");
      expect(imported, at).not.toContain(KEY);
      expect(imported, at).not.toContain(AWS);
      for (const path of [
        "~/.config/sysprompt/kit/base.md",
        "~/.config/sysprompt/kit/aws.md",
        join(kit, "base.md"),
        join(kit, "aws.md"),
      ]) {
        for (const option of ["appendSystemPrompt", "systemPrompt"] as const) {
          const named = await run(projectTrusted, { [option]: path });
          expect(named, `${at} ${option} ${path}`).toMatch(/^refused: /);
          expect(named, `${at} ${option} ${path}`).not.toContain(KEY);
          expect(named, `${at} ${option} ${path}`).not.toContain(AWS);
        }
      }
      const plain = await run(projectTrusted, {
        appendSystemPrompt: "~/.config/sysprompt/kit/plain.md",
      });
      expect(plain, at).toContain("KIT-PLAIN-MARKER");
    }
    // Your AGENTS.md a link to the kit's file (either shape): not read.
    for (const file of ["base.md", "aws.md"]) {
      const agents = join(agent, "AGENTS.md");
      rmSync(agents, { force: true });
      symlinkSync(`../../src/prompt-kit/${file}`, agents);
      for (const projectTrusted of [true, false]) {
        const linked = await run(projectTrusted);
        expect(linked, `${file} trusted ${projectTrusted}`).not.toContain(KEY);
        expect(linked, `${file} trusted ${projectTrusted}`).not.toContain(AWS);
      }
    }
  });

  it("F5: your home reached through a link, your dotfiles outside it: your stowed AGENTS.md's imports are yours", async () => {
    const root = tempDir();
    const home = join(root, "real", "u");
    const dot = join(root, "data", "dotfiles");
    const stowed = join(dot, "pi", ".pi", "agent");
    mkdirSync(join(home, "notes"), { recursive: true });
    mkdirSync(join(home, "work", "app", ".git"), { recursive: true });
    mkdirSync(join(home, ".pi", "agent"), { recursive: true });
    mkdirSync(join(dot, ".git"), { recursive: true });
    mkdirSync(stowed, { recursive: true });
    writeFileSync(join(home, "notes", "n.md"), "NOTES-MARKER\n");
    writeFileSync(join(stowed, "AGENTS.md"), "USER-MARKER\n@~/notes/n.md\n");
    // As GNU stow links it: relative, climbing out of the real home.
    symlinkSync(
      "../../../../data/dotfiles/pi/.pi/agent/AGENTS.md",
      join(home, ".pi", "agent", "AGENTS.md"),
    );
    symlinkSync("real/u", join(root, "homelink"));
    for (const spelled of [home, join(root, "homelink")]) {
      for (const projectTrusted of [true, false]) {
        const r = await rendered(
          pinned(root, {
            cwd: join(spelled, "work", "app"),
            home: spelled,
            agentDir: join(spelled, ".pi", "agent"),
            projectTrusted,
          }),
        );
        expect(r, `${spelled} trusted ${projectTrusted}`).toContain("USER-MARKER");
        expect(r, `${spelled} trusted ${projectTrusted}`).toContain("NOTES-MARKER");
      }
    }
  });
});
