import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";

// `--system-prompt V` and `--append-system-prompt V` (the options `systemPrompt`
// and `appendSystemPrompt`) read V as a file when one is there, relative to the
// working folder: the project's. A user's own line of prose (`--append-system-
// prompt "Be concise."`, in an alias or an agent's settings, run in every
// project) was looked up there too, so a repository that held a file of that
// name put its text in the user's place, and one that held a link of that name
// to ~/.ssh/id_rsa put the key in the prompt, --untrusted or not. A one-line
// value with a space that does not look like a path is now text, never looked
// up. Attack review attack21.

function plantedProject(root: string): void {
  mkdirSync(join(root, "home", ".ssh"), { recursive: true });
  writeFileSync(join(root, "home", ".ssh", "id_rsa"), "SECRET-MARKER-KEY\n");
  mkdirSync(join(root, "project", ".git"), { recursive: true });
  symlinkSync(join(root, "home", ".ssh", "id_rsa"), join(root, "project", "Be concise."));
  writeFileSync(join(root, "project", "Answer in French."), "PROJECT-TEXT-IN-THE-USER-PLACE\n");
}

describe("hostile-text-or-path-planted: the user's prose is not a project's file name", () => {
  for (const trusted of [true, false]) {
    it(`a link named like the appended text is not read (${trusted ? "trusted" : "untrusted"})`, async () => {
      const root = tempDir();
      plantedProject(root);
      const result = await renderSystemPrompt(
        pinned(root, {
          projectTrusted: trusted,
          appendSystemPrompt: ["Be concise.", "Answer in French."],
        }),
      );
      expect(result.text).not.toContain("SECRET-MARKER-KEY");
      expect(result.text).not.toContain("PROJECT-TEXT-IN-THE-USER-PLACE");
      expect(result.text).toContain("Be concise.");
      expect(result.text).toContain("Answer in French.");
    });
  }

  it("the same for systemPrompt", async () => {
    const root = tempDir();
    plantedProject(root);
    const result = await renderSystemPrompt(pinned(root, { systemPrompt: "Be concise." }));
    expect(result.text).not.toContain("SECRET-MARKER-KEY");
    expect(result.text).toContain("Be concise.");
  });

  // A sentence that ends in a file name (`Always follow AGENTS.md`), or holds a slash or starts
  // with `~` (`See docs/setup.md`, `~bob said so.md`), looked like a path and was looked up in the
  // working folder: a project file (or folder `See docs`) of that name replaced the user's words,
  // and a link of that name read as the project's. Attack review lows34.
  it("a sentence that ends in a file name or holds a slash is the text, never the project's file", async () => {
    const root = tempDir();
    plantedProject(root);
    const planted = ["Always follow AGENTS.md", "See docs/setup.md", "~bob said so.md"];
    mkdirSync(join(root, "project", "See docs"));
    for (const name of planted) {
      writeFileSync(join(root, "project", name), "PROJECT-TEXT-IN-THE-USER-PLACE\n");
    }
    for (const projectTrusted of [true, false]) {
      const result = await renderSystemPrompt(
        pinned(root, { projectTrusted, systemPrompt: planted[0], appendSystemPrompt: planted }),
      );
      expect(result.text).not.toContain("PROJECT-TEXT-IN-THE-USER-PLACE");
      for (const value of planted) expect(result.text, value).toContain(value);
    }
  });

  it("a value spelled as a path is still read as the file it names; a sentence is the text", async () => {
    const root = tempDir();
    plantedProject(root);
    mkdirSync(join(root, "project", "my prompts"));
    writeFileSync(join(root, "project", "my prompts", "base.md"), "From the named file.\n");
    writeFileSync(join(root, "project", "my notes.md"), "From my notes.\n");
    writeFileSync(join(root, "project", "BASE"), "From the bare name.\n");
    for (const [value, text] of [
      ["./my prompts/base.md", "From the named file."],
      ["./my notes.md", "From my notes."],
      ["./BASE", "From the bare name."],
      // One word with no separator and no extension is the text too (rev53d F5).
      ["BASE", "BASE"],
      // With a space and not spelled as a path: the words themselves.
      ["my prompts/base.md", "my prompts/base.md"],
      ["my notes.md", "my notes.md"],
    ]) {
      const result = await renderSystemPrompt(pinned(root, { systemPrompt: value }));
      expect(result.text, value).toContain(text);
    }
  });

  // A relative value names a file of the project (its README may say "--system-prompt
  // prompts/base.md"): it is read through the door, so a link out of the project is refused.
  it("a relative path in the project that links out of it is refused, a file in it read", async () => {
    const root = tempDir();
    plantedProject(root);
    mkdirSync(join(root, "project", "prompts"));
    symlinkSync(join(root, "home", ".ssh", "id_rsa"), join(root, "project", "prompts", "base.md"));
    writeFileSync(join(root, "project", "prompts", "own.md"), "The project's own base.\n");
    symlinkSync("own.md", join(root, "project", "prompts", "alias.md"));
    for (const value of ["prompts/base.md", "./prompts/base.md"]) {
      const result = renderSystemPrompt(pinned(root, { systemPrompt: value }));
      await expect(result, value).rejects.toBeInstanceOf(SyspromptError);
      await expect(result, value).rejects.toThrow("outside");
      await expect(
        renderSystemPrompt(pinned(root, { appendSystemPrompt: [value] })),
        value,
      ).rejects.toThrow("outside");
    }
    const own = await renderSystemPrompt(pinned(root, { systemPrompt: "prompts/alias.md" }));
    expect(own.text).toContain("The project's own base.");
    // The user's own files, named from the home folder or by an absolute path, are read as named.
    writeFileSync(join(root, "home", "base.md"), "The user's base.\n");
    const mine = await renderSystemPrompt(pinned(root, { systemPrompt: "~/base.md" }));
    expect(mine.text).toContain("The user's base.");
  });

  // The same file named by its absolute path (a wrapper's "$PWD/prompts/base.md", an agent's
  // "${workspaceFolder}/…") is the project's file just as much: it was read as the user's own,
  // the link followed, the key in the prompt. And in an untrusted project, a project link to
  // its own hidden or git-ignored file (.env, where a clone keeps the user's keys) was read,
  // the door asked as for a trusted one. Attack review attack25.
  it("an absolute path into the project that links out of it is refused", async () => {
    const root = tempDir();
    plantedProject(root);
    mkdirSync(join(root, "project", "prompts"));
    symlinkSync(join(root, "home", ".ssh", "id_rsa"), join(root, "project", "prompts", "base.md"));
    const value = join(root, "project", "prompts", "base.md");
    for (const projectTrusted of [true, false]) {
      await expect(
        renderSystemPrompt(pinned(root, { projectTrusted, systemPrompt: value })),
      ).rejects.toThrow("outside");
      await expect(
        renderSystemPrompt(pinned(root, { projectTrusted, appendSystemPrompt: [value] })),
      ).rejects.toThrow("outside");
    }
  });

  it("a path into the project spelled through the user's link to it is judged as the project's", async () => {
    // ~/work -> the checkout (a common setup): "$PWD/prompts/base.md" from ~/work, or
    // "~/work/prompts/base.md", names the project's link to ~/.ssh/id_rsa (attack review attack26).
    const root = tempDir();
    plantedProject(root);
    mkdirSync(join(root, "project", "prompts"));
    symlinkSync(join(root, "home", ".ssh", "id_rsa"), join(root, "project", "prompts", "base.md"));
    symlinkSync(join(root, "home", ".ssh"), join(root, "project", "keys"));
    writeFileSync(join(root, "project", "prompts", "ok.md"), "THE PROJECT'S OWN PROMPT\n");
    symlinkSync(join(root, "project"), join(root, "home", "work"));
    const spelled = [
      join(root, "home", "work", "prompts", "base.md"),
      "~/work/prompts/base.md",
      "~/work/keys/id_rsa",
    ];
    for (const projectTrusted of [true, false]) {
      for (const value of spelled) {
        await expect(
          renderSystemPrompt(pinned(root, { projectTrusted, systemPrompt: value })),
        ).rejects.toThrow("outside");
        await expect(
          renderSystemPrompt(pinned(root, { projectTrusted, appendSystemPrompt: [value] })),
        ).rejects.toThrow("outside");
      }
      // The project's own file, spelled the same way, is read.
      const ok = await renderSystemPrompt(
        pinned(root, { projectTrusted, systemPrompt: "~/work/prompts/ok.md" }),
      );
      expect(ok.text).toContain("THE PROJECT'S OWN PROMPT");
    }
  });

  it("untrusted: a project link to its own hidden file is refused, the file named itself read", async () => {
    const root = tempDir();
    plantedProject(root);
    writeFileSync(join(root, "project", ".env"), "API_KEY=SECRET-MARKER-ENV\n");
    mkdirSync(join(root, "project", "prompts"));
    symlinkSync("../.env", join(root, "project", "prompts", "base.md"));
    await expect(
      renderSystemPrompt(pinned(root, { projectTrusted: false, systemPrompt: "prompts/base.md" })),
    ).rejects.toThrow("not trusted");
    await expect(
      renderSystemPrompt(
        pinned(root, { projectTrusted: false, appendSystemPrompt: ["prompts/base.md"] }),
      ),
    ).rejects.toThrow("not trusted");
    // Trusted, or named by the user at its own name, it is read as before.
    const trusted = await renderSystemPrompt(pinned(root, { systemPrompt: "prompts/base.md" }));
    expect(trusted.text).toContain("SECRET-MARKER-ENV");
    const named = await renderSystemPrompt(
      pinned(root, { projectTrusted: false, systemPrompt: ".env" }),
    );
    expect(named.text).toContain("SECRET-MARKER-ENV");
  });
});
