import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadSkills } from "../../src/skills/index.js";
import { copyFixture, FIXTURES, skillAt } from "./_helpers.js";

/** Only the explicit paths: no project, no user folders. */
const explicitOnly = (cwd: string, paths: string[]) =>
  loadSkills({
    cwd,
    agentDir: join(cwd, "no-agent-dir"),
    home: cwd,
    paths,
    includeDefaults: false,
  });

describe("a tree shaped like a real skills repository", () => {
  const root = join(FIXTURES, "real-repo-shape/skills");

  test("finds nested SKILL.md folders and described loose files, and nothing else", async () => {
    const docx = join(root, "document/docx/SKILL.md");
    const docxDescription = Array(12)
      .fill(
        "Create, edit and review Word documents (.docx) with tracked changes, comments, styles and tables.",
      )
      .join(" ");
    expect(await explicitOnly(FIXTURES, [root])).toEqual({
      skills: [
        skillAt(
          join(root, "commit-message.md"),
          "commit-message",
          "Write a commit message from the staged diff.",
          "option",
        ),
        skillAt(docx, "docx", docxDescription, "option"),
        skillAt(
          join(root, "document/pdf/SKILL.md"),
          "pdf",
          "Extract text and tables from PDF files, fill in PDF forms, and merge or split\ndocuments. Use when the user hands you a .pdf or asks for one.",
          "option",
        ),
        skillAt(
          join(root, "web/artifacts-builder/SKILL.md"),
          "artifacts-builder",
          "Build multi-file HTML artifacts with React and Tailwind; only when the user asks for it by name.",
          "option",
          true,
        ),
        skillAt(
          join(root, "web/experimental-ok/SKILL.md"),
          "experimental-ok",
          "Re-included by web/.gitignore.",
          "option",
        ),
      ],
      diagnostics: [
        {
          level: "warning",
          code: "skill-description-too-long",
          message: "description is 1175 characters, over the 1024-character limit",
          path: docx,
          line: 3,
          column: 1,
        },
      ],
    });
  });
});

describe("validation", () => {
  const root = join(FIXTURES, "validation/skills");
  const at = (name: string) => join(root, name, "SKILL.md");

  test("drops skills without a description or with refused frontmatter, reads bad YAML line by line, warns about names, loads the rest", async () => {
    const result = await explicitOnly(FIXTURES, [root]);
    expect(result.skills).toEqual([
      skillAt(
        at("bad-names"),
        "-Bad--Name_",
        "Breaks every naming rule but still loads.",
        "option",
      ),
      // Not valid YAML: read line by line, as other agents read it.
      skillAt(at("bad-yaml"), "bad-yaml", "fine", "option"),
      skillAt(
        at("folder-name-used"),
        "folder-name-used",
        "No name field; the folder names the skill.",
        "option",
      ),
      skillAt(at("good"), "good", "A valid skill.", "option"),
      skillAt(at("hidden"), "hidden", "Only invoked by the user.", "option", true),
      skillAt(
        at("hidden-string"),
        "hidden-string",
        'The string "true" does not hide a skill.',
        "option",
      ),
      skillAt(at("long-name"), "a".repeat(65), "A name of 65 characters.", "option"),
      skillAt(
        at("name-not-text"),
        "name-not-text",
        "A numeric name falls back to the folder name.",
        "option",
      ),
    ]);
    expect(result.diagnostics).toEqual([
      {
        level: "warning",
        code: "skill-name-invalid",
        message: 'name "-Bad--Name_" should use only lowercase letters a-z, digits 0-9 and hyphens',
        path: at("bad-names"),
        line: 2,
        column: 1,
      },
      {
        level: "warning",
        code: "skill-name-invalid",
        message: 'name "-Bad--Name_" should not start or end with a hyphen',
        path: at("bad-names"),
        line: 2,
        column: 1,
      },
      {
        level: "warning",
        code: "skill-name-invalid",
        message: 'name "-Bad--Name_" should not contain consecutive hyphens',
        path: at("bad-names"),
        line: 2,
        column: 1,
      },
      {
        level: "warning",
        code: "frontmatter-not-yaml",
        message:
          'frontmatter is not valid YAML (Flow sequence in block collection must be sufficiently indented and end with a ]); read line by line as "key: value", the way other agents\' readers take it; quote the value to make it YAML',
        path: at("bad-yaml"),
        line: 4,
        column: 11,
      },
      {
        level: "error",
        code: "skill-description-required",
        message: "description is required; skill not loaded",
        path: at("blank-description"),
        line: 3,
        column: 1,
      },
      {
        level: "error",
        code: "skill-description-required",
        message: "description is required and must be text; skill not loaded",
        path: at("description-list"),
        line: 3,
        column: 1,
      },
      {
        level: "error",
        code: "frontmatter-engine",
        message: '"---js" frontmatter is executable code and is never run; use YAML',
        path: at("js-engine"),
        line: 1,
        column: 1,
      },
      {
        level: "warning",
        code: "skill-name-invalid",
        message: "name is 65 characters, over the 64-character limit",
        path: at("long-name"),
        line: 2,
        column: 1,
      },
      {
        level: "warning",
        code: "skill-name-invalid",
        message: 'name must be text; using the folder name "name-not-text"',
        path: at("name-not-text"),
        line: 2,
        column: 1,
      },
      {
        level: "error",
        code: "skill-description-required",
        message: "description is required; skill not loaded",
        path: at("no-description"),
      },
      {
        level: "warning",
        code: "frontmatter-unclosed",
        message: "frontmatter starts with --- but has no closing --- line; read as plain text",
        path: at("unclosed"),
        line: 1,
        column: 1,
      },
      {
        level: "error",
        code: "skill-description-required",
        // The block was not read (no closing ---), so there is no key to point at.
        message: "description is required; skill not loaded",
        path: at("unclosed"),
      },
    ]);
  });
});

describe("explicit paths", () => {
  const dir = join(FIXTURES, "explicit-paths");

  test("a folder, a skill folder, .md files (always validated), ~ and relative paths; bad paths are errors", async () => {
    const result = await loadSkills({
      cwd: dir,
      agentDir: join(dir, "no-agent-dir"),
      home: join(dir, "many"),
      includeDefaults: false,
      paths: ["one-skill", "lonely.md", `${dir}/standalone.md`, "~", "missing", "notes.txt"],
    });
    expect(result).toEqual({
      skills: [
        // A relative path into the working folder's project names the project's skill (catalogue/hostile-skill-path-nested).
        skillAt(
          join(dir, "one-skill/SKILL.md"),
          "one-skill",
          "An explicit folder that is itself a skill.",
          "project",
        ),
        skillAt(
          join(dir, "standalone.md"),
          "standalone",
          "An explicit .md file with a description.",
          "option",
        ),
        skillAt(join(dir, "many/alpha/SKILL.md"), "alpha", "First of many.", "option"),
        skillAt(join(dir, "many/beta/SKILL.md"), "beta", "Second of many.", "option"),
      ],
      diagnostics: [
        {
          level: "error",
          code: "skill-path-invalid",
          message: "skill path not found: missing",
          path: join(dir, "missing"),
        },
        {
          level: "error",
          code: "skill-path-invalid",
          message: "skill path is not a Markdown (.md) file: notes.txt",
          path: join(dir, "notes.txt"),
        },
        {
          level: "error",
          code: "skill-description-required",
          message: "description is required; skill not loaded",
          path: join(dir, "lonely.md"),
        },
      ],
    });
  });

  test("~/ paths resolve against home, not cwd", async () => {
    const result = await loadSkills({
      cwd: "/",
      agentDir: "/nonexistent-agent-dir",
      home: dir,
      includeDefaults: false,
      paths: ["~/many/alpha"],
    });
    expect(result).toEqual({
      skills: [skillAt(join(dir, "many/alpha/SKILL.md"), "alpha", "First of many.", "option")],
      diagnostics: [],
    });
  });
});

describe("project and user roots", () => {
  const descriptions = {
    piDeploy: "Deploy this project (project .pi copy).",
    agentsDeploy: "Deploy (repo-root .agents copy).",
    userDeploy: "Deploy (user copy).",
    release: "Cut a release of the monorepo.",
    userRelease: "Release (user .agents copy).",
    format: "Format code the user's way.",
    notes: "Keep notes in the user's journal.",
    appLint: "Lint the app package.",
    appTest: "Test the app package.",
  };
  // In this scenario the user's skills live under home/, the project's under repo/.
  const sourceOf = (path: string) => (path.includes("/home/") ? "user" : "project");
  const collision = (
    name: string,
    loser: string,
    winner: string,
    winnerSource = sourceOf(winner),
  ) =>
    // Your skill taken out by the project's is said as your text left out (rev50d F4).
    winnerSource === "project" && sourceOf(loser) === "user"
      ? {
          level: "warning",
          code: "user-text-left-out",
          message: `your skill "${name}" (${loser}) is left out: the project's ${winner} of the same name takes its place (a trusted project's skill of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back`,
          path: winner,
        }
      : {
          level: sourceOf(loser) === winnerSource ? "warning" : "info",
          code: "name-collision",
          message: `skill "${name}": ${winner} (${winnerSource}) wins over ${loser} (${sourceOf(loser)})`,
          path: loser,
        };

  /** The scenario in a temp dir, with its git root marker (git cannot hold a `.git` entry). */
  const scenario = (gitMarker: "folder" | "file" | "none") => {
    const t = copyFixture("collision-project-beats-user");
    if (gitMarker === "folder") mkdirSync(join(t, "repo/.git"));
    if (gitMarker === "file") writeFileSync(join(t, "repo/.git"), "gitdir: ../elsewhere/.git\n");
    const home = join(t, "home");
    return {
      t,
      home,
      agentDir: join(home, ".pi/agent"),
      p: (rel: string) => join(t, rel, "SKILL.md"),
    };
  };

  test("project beats user; cwd/.pi beats .agents; each loser is a name-collision", async () => {
    const { home, agentDir, p } = scenario("folder");
    const cwd = join(home, "../repo");
    expect(await loadSkills({ cwd, agentDir, home })).toEqual({
      skills: [
        skillAt(p("repo/.pi/skills/deploy"), "deploy", descriptions.piDeploy, "project"),
        skillAt(p("repo/.agents/skills/release"), "release", descriptions.release, "project"),
        skillAt(p("home/.pi/agent/skills/format"), "format", descriptions.format, "user"),
        skillAt(p("home/.agents/skills/notes"), "notes", descriptions.notes, "user"),
      ],
      diagnostics: [
        collision("deploy", p("repo/.agents/skills/deploy"), p("repo/.pi/skills/deploy")),
        collision("deploy", p("home/.pi/agent/skills/deploy"), p("repo/.pi/skills/deploy")),
        collision("release", p("home/.agents/skills/release"), p("repo/.agents/skills/release")),
      ],
    });
  });

  test(".agents/skills is searched from cwd up to the git root (a .git file counts), nearest first", async () => {
    const { t, home, agentDir, p } = scenario("file");
    const cwd = join(t, "repo/packages/app");
    expect(await loadSkills({ cwd, agentDir, home })).toEqual({
      skills: [
        skillAt(
          p("repo/packages/app/.pi/skills/app-test"),
          "app-test",
          descriptions.appTest,
          "project",
        ),
        skillAt(
          p("repo/packages/app/.agents/skills/app-lint"),
          "app-lint",
          descriptions.appLint,
          "project",
        ),
        skillAt(p("repo/.agents/skills/deploy"), "deploy", descriptions.agentsDeploy, "project"),
        skillAt(p("repo/.agents/skills/release"), "release", descriptions.release, "project"),
        skillAt(p("home/.pi/agent/skills/format"), "format", descriptions.format, "user"),
        skillAt(p("home/.agents/skills/notes"), "notes", descriptions.notes, "user"),
      ],
      diagnostics: [
        collision("deploy", p("home/.pi/agent/skills/deploy"), p("repo/.agents/skills/deploy")),
        collision("release", p("home/.agents/skills/release"), p("repo/.agents/skills/release")),
      ],
    });
  });

  test("without a git root only cwd's own .agents/skills is a project root", async () => {
    const { t, home, agentDir, p } = scenario("none");
    const cwd = join(t, "repo/packages/app");
    expect(await loadSkills({ cwd, agentDir, home })).toEqual({
      skills: [
        skillAt(
          p("repo/packages/app/.pi/skills/app-test"),
          "app-test",
          descriptions.appTest,
          "project",
        ),
        skillAt(
          p("repo/packages/app/.agents/skills/app-lint"),
          "app-lint",
          descriptions.appLint,
          "project",
        ),
        skillAt(p("home/.pi/agent/skills/deploy"), "deploy", descriptions.userDeploy, "user"),
        skillAt(p("home/.pi/agent/skills/format"), "format", descriptions.format, "user"),
        skillAt(p("home/.agents/skills/notes"), "notes", descriptions.notes, "user"),
        skillAt(p("home/.agents/skills/release"), "release", descriptions.userRelease, "user"),
      ],
      diagnostics: [],
    });
  });

  test("an untrusted project's roots are skipped with an info diagnostic each", async () => {
    const { t, home, agentDir, p } = scenario("folder");
    const cwd = join(t, "repo");
    expect(await loadSkills({ cwd, agentDir, home, projectTrusted: false })).toEqual({
      skills: [
        skillAt(p("home/.pi/agent/skills/deploy"), "deploy", descriptions.userDeploy, "user"),
        skillAt(p("home/.pi/agent/skills/format"), "format", descriptions.format, "user"),
        skillAt(p("home/.agents/skills/notes"), "notes", descriptions.notes, "user"),
        skillAt(p("home/.agents/skills/release"), "release", descriptions.userRelease, "user"),
      ],
      diagnostics: [
        {
          level: "info",
          code: "project-untrusted",
          message: "project skills skipped because the project is not trusted",
          path: join(cwd, ".pi/skills"),
        },
        {
          level: "info",
          code: "project-untrusted",
          message: "project skills skipped because the project is not trusted",
          path: join(cwd, ".agents/skills"),
        },
      ],
    });
  });

  test("explicit paths come first; a file reached again through a later root loads once, silently", async () => {
    const { t, home, agentDir, p } = scenario("folder");
    const cwd = join(t, "repo");
    const result = await loadSkills({
      cwd,
      agentDir,
      home,
      projectDir: ".elsewhere",
      paths: ["~/.agents/skills/release"],
    });
    expect(result).toEqual({
      skills: [
        skillAt(p("home/.agents/skills/release"), "release", descriptions.userRelease, "option"),
        skillAt(p("repo/.agents/skills/deploy"), "deploy", descriptions.agentsDeploy, "project"),
        skillAt(p("home/.pi/agent/skills/format"), "format", descriptions.format, "user"),
        skillAt(p("home/.agents/skills/notes"), "notes", descriptions.notes, "user"),
      ],
      diagnostics: [
        collision(
          "release",
          p("repo/.agents/skills/release"),
          p("home/.agents/skills/release"),
          "option",
        ),
        collision("deploy", p("home/.pi/agent/skills/deploy"), p("repo/.agents/skills/deploy")),
      ],
    });
  });
});
