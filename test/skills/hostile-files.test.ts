import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadSkills } from "../../src/skills/index.js";
import { skillAt, tempDir } from "./_helpers.js";

// What git cannot hold (FIFOs, links, loops, raw bytes) is built here, in a temp dir.

const skillText = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;

function writeSkill(dir: string, name: string, description = `The ${name} skill.`): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "SKILL.md");
  writeFileSync(file, skillText(name, description));
  return file;
}

const explicitOnly = (root: string, paths = [root]) =>
  loadSkills({
    cwd: root,
    agentDir: join(root, "none"),
    home: root,
    paths,
    includeDefaults: false,
  });

describe("files that are not what they seem", () => {
  test("a FIFO named SKILL.md is reported without being opened, so the walk does not block", async () => {
    const root = tempDir();
    const good = writeSkill(join(root, "good"), "good");
    mkdirSync(join(root, "fifo"));
    execFileSync("mkfifo", [join(root, "fifo/SKILL.md")]);
    expect(await explicitOnly(root)).toEqual({
      skills: [skillAt(good, "good", "The good skill.", "option")],
      diagnostics: [
        {
          level: "warning",
          code: "file-not-regular",
          message: "not a regular file; skipped without opening it",
          path: join(root, "fifo/SKILL.md"),
        },
      ],
    });
  }, 5000);

  test("an explicit path to a FIFO is an error, not a read", async () => {
    const root = tempDir();
    execFileSync("mkfifo", [join(root, "pipe.md")]);
    expect(await explicitOnly(root, [join(root, "pipe.md")])).toEqual({
      skills: [],
      diagnostics: [
        {
          level: "error",
          code: "skill-path-invalid",
          message: `skill path is not a file or folder: ${join(root, "pipe.md")}`,
          path: join(root, "pipe.md"),
        },
      ],
    });
  }, 5000);

  test("a folder named SKILL.md marks the skill folder and is reported; the walk stops there", async () => {
    const root = tempDir();
    writeSkill(join(root, "odd/SKILL.md"), "inside-the-folder");
    expect(await explicitOnly(root)).toEqual({
      skills: [],
      diagnostics: [
        {
          level: "warning",
          code: "file-not-regular",
          message: "a folder; skipped without opening it",
          path: join(root, "odd/SKILL.md"),
        },
      ],
    });
  });

  test("a binary SKILL.md is skipped with a warning", async () => {
    const root = tempDir();
    mkdirSync(join(root, "bin"));
    writeFileSync(
      join(root, "bin/SKILL.md"),
      Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01, 0x02, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]),
    );
    expect(await explicitOnly(root)).toEqual({
      skills: [],
      diagnostics: [
        {
          level: "warning",
          code: "file-binary",
          message: "binary file skipped",
          path: join(root, "bin/SKILL.md"),
        },
      ],
    });
  });

  test("invalid UTF-8 still loads, with U+FFFD and a warning", async () => {
    const root = tempDir();
    mkdirSync(join(root, "latin1"));
    const file = join(root, "latin1/SKILL.md");
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from("---\nname: latin1\ndescription: Caf"),
        Buffer.from([0xe9]),
        Buffer.from(" menus.\n---\nBody.\n"),
      ]),
    );
    expect(await explicitOnly(root)).toEqual({
      skills: [skillAt(file, "latin1", "Caf\uFFFD menus.", "option")],
      diagnostics: [
        {
          level: "warning",
          code: "file-encoding",
          message: "file is not valid UTF-8; invalid bytes were replaced with U+FFFD",
          path: file,
        },
      ],
    });
  });

  test("a BOM and CRLF line endings are normalised away", async () => {
    const root = tempDir();
    mkdirSync(join(root, "windows"));
    const file = join(root, "windows/SKILL.md");
    writeFileSync(
      file,
      "\uFEFF---\r\nname: windows\r\ndescription: |-\r\n  Two lines\r\n  from Windows.\r\n---\r\nBody.\r\n",
    );
    expect(await explicitOnly(root)).toEqual({
      skills: [skillAt(file, "windows", "Two lines\nfrom Windows.", "option")],
      diagnostics: [],
    });
  });

  test("a loose .md file that is binary or not UTF-8 and has no description is skipped silently", async () => {
    const root = tempDir();
    writeFileSync(join(root, "notes.md"), Buffer.from([0x00, 0xff, 0xfe]));
    writeFileSync(join(root, "latin1.md"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(await explicitOnly(root)).toEqual({ skills: [], diagnostics: [] });
  });
});

describe("symlinks", () => {
  test("link loops and self-links end the walk; the skill inside loads once", async () => {
    const root = tempDir();
    const file = writeSkill(join(root, "group/real"), "real");
    symlinkSync(root, join(root, "group/back-to-root"));
    symlinkSync(join(root, "group"), join(root, "group/again"));
    symlinkSync(join(root, "self"), join(root, "self"));
    symlinkSync(join(root, "nowhere"), join(root, "dangling"));
    expect(await explicitOnly(root)).toEqual({
      skills: [skillAt(file, "real", "The real skill.", "option")],
      diagnostics: [],
    });
  });

  // A project's skills folder linked out of the project is the project's no more: its files are
  // refused (trust covers the project's files, not where its links lead); the user's own link to
  // the same folder (a shared checkout, read through its door) still loads them, as the user's,
  // and a skill folder linked in from within the home folder is followed (a file of yours linked
  // out of your home and agent dir is refused: review rev107a F2).
  test("a symlinked skills folder is followed within its layer; a project's root linked out of the project is refused whole", async () => {
    const t = tempDir();
    const shared = join(t, "shared-skills");
    writeSkill(join(shared, "lint"), "lint");
    writeSkill(join(shared, "test"), "test");
    mkdirSync(join(shared, ".git"));
    const cwd = join(t, "project");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    mkdirSync(join(cwd, ".pi"));
    symlinkSync(shared, join(cwd, ".pi/skills"));
    const home = join(t, "home");
    mkdirSync(join(home, ".agents"), { recursive: true });
    symlinkSync(shared, join(home, ".agents/skills"));
    // A skill folder linked in on its own, next to real ones.
    writeSkill(join(home, "elsewhere/deploy"), "deploy");
    mkdirSync(join(home, ".pi/agent/skills"), { recursive: true });
    symlinkSync(join(home, "elsewhere/deploy"), join(home, ".pi/agent/skills/deploy"));

    const result = await loadSkills({ cwd, agentDir: join(home, ".pi/agent"), home });
    expect(result).toEqual({
      skills: [
        skillAt(
          join(home, ".pi/agent/skills/deploy/SKILL.md"),
          "deploy",
          "The deploy skill.",
          "user",
        ),
        skillAt(join(home, ".agents/skills/lint/SKILL.md"), "lint", "The lint skill.", "user"),
        skillAt(join(home, ".agents/skills/test/SKILL.md"), "test", "The test skill.", "user"),
      ],
      // The project's root linked out is not walked: one refusal, at the root.
      diagnostics: [
        {
          level: "warning",
          code: "file-outside-project",
          message: `not read: it resolves to ${shared}, outside the project root ${cwd}`,
          path: join(cwd, ".pi/skills"),
        },
      ],
    });
  });
});

describe("odd roots and ignore files", () => {
  test("a default root that is a file is reported; missing roots are silent", async () => {
    const t = tempDir();
    mkdirSync(join(t, "project/.pi"), { recursive: true });
    writeFileSync(join(t, "project/.pi/skills"), "not a folder\n");
    const result = await loadSkills({
      cwd: join(t, "project"),
      agentDir: join(t, "agent"),
      home: join(t, "home"),
    });
    expect(result).toEqual({
      skills: [],
      diagnostics: [
        {
          level: "warning",
          code: "skills-root-not-folder",
          message: "skills location is not a folder; skipped",
          path: join(t, "project/.pi/skills"),
        },
      ],
    });
  });

  test("a .gitignore with CRLF endings, anchored and negated patterns is honoured", async () => {
    const root = tempDir();
    writeFileSync(join(root, ".gitignore"), "/top-only/\r\nlegacy-*/\r\n");
    writeSkill(join(root, "top-only"), "top-only");
    const nestedTopOnly = writeSkill(join(root, "group/top-only"), "nested-top-only");
    writeSkill(join(root, "group/legacy-a"), "legacy-a");
    writeFileSync(join(root, "group/.gitignore"), "!legacy-keep/\n/local/\n");
    const kept = writeSkill(join(root, "group/legacy-keep"), "legacy-keep");
    writeSkill(join(root, "group/local"), "local");
    const deepLocal = writeSkill(join(root, "group/sub/local"), "deep-local");
    expect(await explicitOnly(root)).toEqual({
      skills: [
        skillAt(kept, "legacy-keep", "The legacy-keep skill.", "option"),
        skillAt(deepLocal, "deep-local", "The deep-local skill.", "option"),
        skillAt(nestedTopOnly, "nested-top-only", "The nested-top-only skill.", "option"),
      ],
      diagnostics: [],
    });
  });

  test("a FIFO named .gitignore is not opened, and said to be an ignore file not read", async () => {
    const root = tempDir();
    execFileSync("mkfifo", [join(root, ".gitignore")]);
    const file = writeSkill(join(root, "fine"), "fine");
    const found = await explicitOnly(root);
    expect(found.skills).toEqual([skillAt(file, "fine", "The fine skill.", "option")]);
    // As the workspace tree says it (fx77d): git blocks on it, so what it would hide is unknown.
    expect(found.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["ignore-patterns-cut", join(root, ".gitignore")],
    ]);
  }, 5000);

  test("a .gitignore pattern too long to compile ignores nothing, said, instead of failing the walk", async () => {
    const root = tempDir();
    writeFileSync(join(root, ".gitignore"), `${"a".repeat(100_000)}\nignored/\n`);
    const file = writeSkill(join(root, "fine"), "fine");
    writeSkill(join(root, "ignored"), "ignored");
    const found = await explicitOnly(root);
    expect(found.skills).toEqual([skillAt(file, "fine", "The fine skill.", "option")]);
    expect(found.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["ignore-pattern-refused", join(root, ".gitignore")],
    ]);
  });
});
