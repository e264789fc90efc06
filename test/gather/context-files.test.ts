import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ancestorsOf } from "../../src/_paths.js";
import { loadContextFiles } from "../../src/gather/context/context-files.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { copyScenario, pinned, tempDir } from "../api/_helpers.js";
import { contextSection } from "./_context-section.js";

// Scenarios run from temp copies: discovery walks every ancestor of cwd, so
// the temp root's ancestors (/tmp, /) are part of every expected value.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((done) => s.close(() => done()))),
  );
});

async function listenOn(path: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((done) => server.listen(path, done));
}

const shadowed = (path: string, name: string, winner: string) => ({
  level: "info",
  code: "context-shadowed",
  message: `${name} is not loaded: ${winner} in the same folder is used (one context file per folder)`,
  path,
});

const notFile = (path: string, name: string) => ({
  level: "info",
  code: "context-not-file",
  message: `${name} is not a regular file; skipped without opening it`,
  path,
});

describe("ancestorsOf", () => {
  it("lists the root first and cwd last", () => {
    expect(ancestorsOf("/a/b/c")).toEqual(["/", "/a", "/a/b", "/a/b/c"]);
    expect(ancestorsOf("/")).toEqual(["/"]);
  });
});

describe("loadContextFiles", () => {
  it("the agent dir's file first, then ancestors from the outermost down to cwd, trimmed", async () => {
    const root = copyScenario("context", "ancestors-outermost-first");
    expect(
      await loadContextFiles({ cwd: join(root, "project", "sub"), agentDir: join(root, "agent") }),
    ).toEqual({
      files: [
        {
          path: `${root}/agent/AGENTS.md`,
          origin: "user",
          content: "From the agent dir: comes first.",
        },
        {
          path: `${root}/AGENTS.md`,
          origin: "project",
          content: "# Root\nOutermost folder rules.",
        },
        {
          path: `${root}/project/CLAUDE.md`,
          origin: "project",
          content: "From CLAUDE.md in project (trimmed).",
        },
        {
          path: `${root}/project/sub/AGENTS.md`,
          origin: "project",
          content: "From the working directory: comes last.",
        },
      ],
      diagnostics: [],
    });
  });

  it("AGENTS.override.md is the first name tried", async () => {
    const root = copyScenario("context", "override-wins");
    expect(
      await loadContextFiles({ cwd: join(root, "project"), agentDir: join(root, "agent") }),
    ).toEqual({
      files: [
        {
          path: `${root}/project/AGENTS.override.md`,
          origin: "project",
          content: "AGENTS.override.md wins over every other name.",
        },
      ],
      diagnostics: [
        shadowed(`${root}/project/AGENTS.md`, "AGENTS.md", "AGENTS.override.md"),
        shadowed(`${root}/project/CLAUDE.md`, "CLAUDE.md", "AGENTS.override.md"),
      ],
    });
  });

  it("AGENTS.MD comes before CLAUDE.md; CLAUDE.MD is tried last", async () => {
    const root = copyScenario("context", "upper-case-names");
    expect(
      await loadContextFiles({
        cwd: join(root, "project", "claude-upper"),
        agentDir: join(root, "agent"),
      }),
    ).toEqual({
      files: [
        {
          path: `${root}/project/AGENTS.MD`,
          origin: "project",
          content: "AGENTS.MD beats CLAUDE.md.",
        },
        {
          path: `${root}/project/claude-upper/CLAUDE.MD`,
          origin: "project",
          content: "CLAUDE.MD is the last name tried.",
        },
      ],
      diagnostics: [shadowed(`${root}/project/CLAUDE.md`, "CLAUDE.md", "AGENTS.MD")],
    });
  });

  it("CLAUDE.md beside AGENTS.md: AGENTS.md is used and an info names both", async () => {
    const root = copyScenario("context", "claude-beside-agents");
    expect(
      await loadContextFiles({ cwd: join(root, "project"), agentDir: join(root, "agent") }),
    ).toEqual({
      files: [
        {
          path: `${root}/project/AGENTS.md`,
          origin: "project",
          content: "AGENTS.md is the file this folder uses.",
        },
      ],
      diagnostics: [shadowed(`${root}/project/CLAUDE.md`, "CLAUDE.md", "AGENTS.md")],
    });
  });

  it("a folder, a FIFO or a socket with a candidate's name is skipped unopened; the next candidate is used", async () => {
    const root = tempDir();
    const folder = join(root, "folder");
    const fifo = join(root, "folder", "fifo");
    const socket = join(root, "folder", "fifo", "socket");
    mkdirSync(join(folder, "AGENTS.override.md"), { recursive: true });
    writeFileSync(join(folder, "AGENTS.md"), "Next to a folder named AGENTS.override.md.");
    mkdirSync(fifo);
    execFileSync("mkfifo", [join(fifo, "AGENTS.md")]);
    writeFileSync(join(fifo, "AGENTS.MD"), "Next to a FIFO named AGENTS.md.");
    mkdirSync(socket);
    await listenOn(join(socket, "AGENTS.md"));
    writeFileSync(join(socket, "CLAUDE.md"), "Next to a socket named AGENTS.md.");

    expect(await loadContextFiles({ cwd: socket, agentDir: join(root, "agent") })).toEqual({
      files: [
        {
          path: `${folder}/AGENTS.md`,
          origin: "project",
          content: "Next to a folder named AGENTS.override.md.",
        },
        {
          path: `${fifo}/AGENTS.MD`,
          content: "Next to a FIFO named AGENTS.md.",
          origin: "project",
        },
        {
          path: `${socket}/CLAUDE.md`,
          origin: "project",
          content: "Next to a socket named AGENTS.md.",
        },
      ],
      diagnostics: [
        notFile(join(folder, "AGENTS.override.md"), "AGENTS.override.md"),
        notFile(join(fifo, "AGENTS.md"), "AGENTS.md"),
        notFile(join(socket, "AGENTS.md"), "AGENTS.md"),
      ],
    });
  }, 5000);

  it("a symlink loop is reported and passed over; a link to a file is followed; one real file loads once", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(project);
    symlinkSync("AGENTS.override.md", join(project, "AGENTS.override.md"));
    writeFileSync(join(project, "shared.md"), "Shared instructions.");
    symlinkSync("shared.md", join(project, "AGENTS.md"));
    // The agent dir's file is the same real file: it loads once, first (within the home folder:
    // a file of yours linked out of your home and agent dir is refused, review rev107a F2).
    mkdirSync(join(root, "agent"));
    symlinkSync("../project/shared.md", join(root, "agent", "AGENTS.md"));

    const result = await loadContextFiles({
      cwd: project,
      agentDir: join(root, "agent"),
      home: root,
    });
    expect(result).toEqual({
      files: [{ path: `${root}/agent/AGENTS.md`, content: "Shared instructions.", origin: "user" }],
      diagnostics: [
        {
          level: "warning",
          code: "context-unreadable",
          message: `cannot inspect AGENTS.override.md: ELOOP: too many symbolic links encountered, stat '${project}/AGENTS.override.md'`,
          path: join(project, "AGENTS.override.md"),
        },
      ],
    });
  });

  it("CRLF and a BOM are normalised", async () => {
    const root = tempDir();
    writeFileSync(join(root, "AGENTS.md"), "\uFEFFLine one.\r\nLine two.\r\n");
    expect(await loadContextFiles({ cwd: root, agentDir: join(root, "agent") })).toEqual({
      files: [{ path: `${root}/AGENTS.md`, content: "Line one.\nLine two.", origin: "project" }],
      diagnostics: [],
    });
  });
});

describe("context files in the prompt", () => {
  it("content with {{…}} stays literal", async () => {
    const root = copyScenario("context", "literal-braces");
    const cwd = join(root, "project");
    const result = await renderSystemPrompt(pinned(root));
    expect(result.diagnostics).toEqual([]);
    expect(result.sections.find((s) => s.name === "project_context")?.text).toBe(
      contextSection([
        [
          `${cwd}/AGENTS.md`,
          [
            "Templates in this repo look like {{cwd}} and {{#if ready}}…{{/if}}; {{> base}} too.",
            "They must reach the model exactly as written.",
          ].join("\n"),
        ],
      ]),
    );
  });

  it("one section holds every file, outermost first", async () => {
    const root = copyScenario("context", "ancestors-outermost-first");
    const result = await renderSystemPrompt(pinned(root, { cwd: join(root, "project", "sub") }));
    expect(result.sections.find((s) => s.name === "project_context")?.text).toBe(
      contextSection([
        [`${root}/agent/AGENTS.md`, "From the agent dir: comes first.", "user"],
        [`${root}/AGENTS.md`, ["# Root", "Outermost folder rules."].join("\n")],
        [`${root}/project/CLAUDE.md`, "From CLAUDE.md in project (trimmed)."],
        [`${root}/project/sub/AGENTS.md`, "From the working directory: comes last."],
      ]),
    );
  });

  it("noContextFiles: no section, the step is skipped", async () => {
    const root = copyScenario("context", "ancestors-outermost-first");
    const result = await renderSystemPrompt(
      pinned(root, { cwd: join(root, "project", "sub"), noContextFiles: true }),
    );
    expect(result.sections.map((s) => s.name)).toEqual([
      "preamble",
      "tools",
      "rules",
      "cwd",
      "environment",
      "date",
    ]);
    expect(result.steps.find((s) => s.name === "context")?.status).toBe("skipped");
  });
});
