import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextFiles } from "../../src/gather/context/context-files.js";
import { tempDir } from "../api/_helpers.js";

/** A git checkout with a token in `.git/config`, a `.env`, an ignored file and a plain doc. */
function checkout(): { root: string; project: string; agent: string } {
  const root = tempDir();
  const project = join(root, "project");
  mkdirSync(join(project, ".git", "info"), { recursive: true });
  writeFileSync(join(project, ".git", "config"), "url = https://user:ghp_TOKEN@github.com/o/r");
  writeFileSync(join(project, ".git", "info", "exclude"), "local-notes.md\n");
  writeFileSync(join(project, ".env"), "API_KEY=sk-live-123");
  writeFileSync(join(project, ".gitignore"), "secrets/\n*.key\n");
  mkdirSync(join(project, "secrets"));
  writeFileSync(join(project, "secrets", "prod.md"), "db password hunter2");
  mkdirSync(join(project, "docs"));
  writeFileSync(join(project, "docs", "deploy.key"), "KEY");
  writeFileSync(join(project, "docs", ".gitignore"), "draft.md\n");
  writeFileSync(join(project, "docs", "draft.md"), "draft");
  writeFileSync(join(project, "docs", "style.md"), "Tabs.");
  writeFileSync(join(project, "local-notes.md"), "mine");
  const agent = join(root, "agent");
  mkdirSync(agent);
  return { root, project, agent };
}

const IMPORTS = [
  "@./.git/config",
  "@./.env",
  "@./secrets/prod.md",
  "@./docs/deploy.key",
  "@./docs/draft.md",
  "@./local-notes.md",
  "@./docs/style.md",
];

const refused = (path: string, line: number, written: string, rel: string, why: string) => ({
  level: "warning",
  code: "import-private",
  message: `${written}: not imported: the project is not trusted and it resolves to ${rel}, which is ${why}; trust the project to read it`,
  path,
  line,
  column: 1,
});

describe("imports of an untrusted project's private files", () => {
  it("under .git/, hidden or ignored by git: refused with a warning each; a plain doc imports", async () => {
    const { project, agent } = checkout();
    writeFileSync(join(project, "AGENTS.md"), `${IMPORTS.join("\n")}\n`);
    const file = join(project, "AGENTS.md");
    const result = await loadContextFiles({ cwd: project, agentDir: agent, projectTrusted: false });
    expect(result).toEqual({
      files: [
        {
          path: `${project}/AGENTS.md`,
          content: [...IMPORTS.slice(0, -1), "Tabs."].join("\n"),
          origin: "project",
        },
      ],
      diagnostics: [
        refused(file, 1, "@./.git/config", ".git/config", "inside .git/"),
        refused(file, 2, "@./.env", ".env", "hidden (a name that starts with a dot)"),
        refused(file, 3, "@./secrets/prod.md", "secrets/prod.md", "ignored by git"),
        refused(file, 4, "@./docs/deploy.key", "docs/deploy.key", "ignored by git"),
        refused(file, 5, "@./docs/draft.md", "docs/draft.md", "ignored by git"),
        refused(file, 6, "@./local-notes.md", "local-notes.md", "ignored by git"),
      ],
    });
  });

  it("a link with a plain name to .git/config is judged by where it leads", async () => {
    const { project, agent } = checkout();
    symlinkSync(".git/config", join(project, "remote.md"));
    writeFileSync(join(project, "AGENTS.md"), "@./remote.md\n");
    const result = await loadContextFiles({ cwd: project, agentDir: agent, projectTrusted: false });
    expect(result.diagnostics).toEqual([
      refused(join(project, "AGENTS.md"), 1, "@./remote.md", ".git/config", "inside .git/"),
    ]);
  });

  it("the context file itself may not be a link to them", async () => {
    const { project, agent } = checkout();
    symlinkSync(".env", join(project, "AGENTS.md"));
    const result = await loadContextFiles({ cwd: project, agentDir: agent, projectTrusted: false });
    expect(result).toEqual({
      files: [],
      diagnostics: [
        {
          level: "warning",
          code: "context-private",
          message:
            "not loaded: the project is not trusted and it resolves to .env, which is hidden (a name that starts with a dot); trust the project to read it",
          path: join(project, "AGENTS.md"),
        },
      ],
    });
  });

  it("a trusted project imports them as before", async () => {
    const { project, agent } = checkout();
    writeFileSync(join(project, "AGENTS.md"), "@./.env\n@./secrets/prod.md\n");
    const result = await loadContextFiles({ cwd: project, agentDir: agent });
    expect(result).toEqual({
      files: [
        {
          path: `${project}/AGENTS.md`,
          content: "API_KEY=sk-live-123\ndb password hunter2",
          origin: "project",
        },
      ],
      diagnostics: [],
    });
  });
});
