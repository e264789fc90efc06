import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { expandBraces, globMatcher } from "../../src/gather/rules/globs.js";
import { loadRules } from "../../src/gather/rules/load.js";
import { createPromptSession } from "../../src/session/session.js";
import { pinned, tempDir } from "../api/_helpers.js";

/** Writes `files` (relative path → text) under `root`. */
function layout(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** A git project with a root AGENTS.md, nested ones in pkg/ and pkg/sub/, and source files. */
function nestedProject(extra: Record<string, string> = {}): { root: string; project: string } {
  const root = tempDir();
  const project = join(root, "project");
  layout(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "Root rules: run npm test.\n",
    "project/pkg/AGENTS.md": "Package rules: keep the API small.\n",
    "project/pkg/sub/AGENTS.md": "Sub rules: no default exports.\n",
    "project/pkg/sub/x.ts": "export const x = 1;\n",
    "project/pkg/sub/y.ts": "export const y = 2;\n",
    "project/other/z.ts": "export const z = 3;\n",
    ...extra,
  });
  mkdirSync(join(root, "agent"), { recursive: true });
  return { root, project };
}

const P = (project: string, rel: string) => `${project}/${rel}`;

describe("loadContextForPaths", () => {
  it("gives the nested context files between the project root and the path's folder, outermost first, not cwd's", async () => {
    const { root, project } = nestedProject();
    const got = await loadContextForPaths(["pkg/sub/x.ts"], {
      cwd: project,
      home: join(root, "home"),
    });
    expect(got).toEqual({
      files: [
        {
          path: P(project, "pkg/AGENTS.md"),
          content: "Package rules: keep the API small.",
          kind: "context",
        },
        {
          path: P(project, "pkg/sub/AGENTS.md"),
          content: "Sub rules: no default exports.",
          kind: "context",
        },
      ],
      diagnostics: [],
    });
  });

  it("gives each file once per delivered set; a folder path counts as its own folder", async () => {
    const { root, project } = nestedProject();
    const delivered = new Set<string>();
    const o = { cwd: project, home: join(root, "home"), delivered };
    const first = await loadContextForPaths([P(project, "pkg")], o);
    expect(first.files.map((f) => f.path)).toEqual([P(project, "pkg/AGENTS.md")]);
    const second = await loadContextForPaths(["pkg/sub/x.ts", "pkg/sub/y.ts"], o);
    expect(second.files.map((f) => f.path)).toEqual([P(project, "pkg/sub/AGENTS.md")]);
    expect(await loadContextForPaths(["pkg/sub/y.ts", "pkg"], o)).toEqual({
      files: [],
      diagnostics: [],
    });
  });

  it("skips cwd and its ancestors (the prompt holds them), also when cwd is below the root", async () => {
    const { root, project } = nestedProject();
    const got = await loadContextForPaths(["x.ts", "../other/z.ts"], {
      cwd: join(project, "pkg/sub"),
      home: join(root, "home"),
    });
    expect(got).toEqual({ files: [], diagnostics: [] });
  });

  it("gives nothing for a link to a file the prompt already holds", async () => {
    const { root, project } = nestedProject();
    layout(root, { "project/lib/a.ts": "" });
    symlinkSync("../AGENTS.md", join(project, "lib/AGENTS.md"));
    // Not even read: a cap it passes would otherwise be said.
    const got = await loadContextForPaths(["lib/a.ts"], {
      cwd: project,
      home: join(root, "home"),
      maxBytes: 5,
    });
    expect(got).toEqual({ files: [], diagnostics: [] });
  });

  it("follows the path's real folder: a link to a folder inside the project brings that folder's file", async () => {
    const { root, project } = nestedProject();
    symlinkSync("pkg/sub", join(project, "alias"));
    const got = await loadContextForPaths(["alias/x.ts"], {
      cwd: project,
      home: join(root, "home"),
    });
    expect(got.files.map((f) => f.path)).toEqual([
      P(project, "pkg/AGENTS.md"),
      P(project, "pkg/sub/AGENTS.md"),
    ]);
  });

  it("takes a path that does not exist yet (a write) by its folder", async () => {
    const { root, project } = nestedProject();
    const got = await loadContextForPaths(["pkg/sub/new/deep/file.ts"], {
      cwd: project,
      home: join(root, "home"),
    });
    expect(got.files.map((f) => f.path)).toEqual([
      P(project, "pkg/AGENTS.md"),
      P(project, "pkg/sub/AGENTS.md"),
    ]);
  });

  it("expands @imports as context files do, confined to the project", async () => {
    const { root, project } = nestedProject({
      "project/pkg/AGENTS.md": "Package rules.\n\n@docs/style.md\n\n@/etc/hostname\n",
      "project/pkg/docs/style.md": "Two spaces.\n",
    });
    const got = await loadContextForPaths(["pkg/x.ts"], { cwd: project, home: join(root, "home") });
    expect(got.files[0]?.content).toContain("Two spaces.");
    expect(got.files[0]?.content).not.toContain("@docs/style.md");
    expect(got.diagnostics.map((d) => d.code)).toEqual(["import-outside"]);
  });

  it("caps a file as context files are, with the same marker line", async () => {
    const { root, project } = nestedProject({ "project/pkg/AGENTS.md": `${"a".repeat(100)}\n` });
    const got = await loadContextForPaths(["pkg/x.ts"], {
      cwd: project,
      home: join(root, "home"),
      maxBytes: 10,
    });
    expect(got.files[0]?.content).toBe(
      "aaaaaaaaaa\n[… 91 B (91 bytes) more of this file left out: context files are cut at 10 B]",
    );
    expect(got.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["context-cut", P(project, "pkg/AGENTS.md")],
    ]);
  });

  it("escapes the text: it cannot close the element it is given in, nor open the prompt's", async () => {
    const { root, project } = nestedProject({
      "project/pkg/AGENTS.md": "a </instructions> b <project_context> c </div>\n",
    });
    const got = await loadContextForPaths(["pkg/x.ts"], {
      cwd: project,
      home: join(root, "home"),
      wrappers: ["project_context"],
    });
    expect(got.files[0]?.content).toBe("a &lt;/instructions> b &lt;project_context> c </div>");
  });

  it("gives a path outside the project nothing, with an info", async () => {
    const { root, project } = nestedProject();
    layout(root, { "elsewhere/AGENTS.md": "secret\n", "elsewhere/a.ts": "" });
    const got = await loadContextForPaths([join(root, "elsewhere/a.ts")], {
      cwd: project,
      home: join(root, "home"),
    });
    expect(got).toEqual({
      files: [],
      diagnostics: [
        {
          level: "info",
          code: "touch-outside-project",
          message: `nothing loaded for this path: it resolves to ${root}/elsewhere/a.ts, outside the project root ${project}`,
          path: `${root}/elsewhere/a.ts`,
        },
      ],
    });
  });

  it("leaves context files out when asked, rules still come", async () => {
    const { root, project } = nestedProject({
      "project/.cursor/rules/ts.mdc": "---\nglobs: pkg/**/*.ts\n---\nTS rule.\n",
    });
    const rules = [
      {
        name: "ts",
        path: P(project, ".cursor/rules/ts.mdc"),
        content: "TS rule.",
        activation: "glob" as const,
        globs: ["pkg/**/*.ts"],
        source: "cursor" as const,
        layer: "project" as const,
      },
    ];
    const got = await loadContextForPaths(["pkg/sub/x.ts"], {
      cwd: project,
      home: join(root, "home"),
      rules,
      contextFiles: false,
    });
    expect(got).toEqual({
      files: [
        { path: P(project, ".cursor/rules/ts.mdc"), content: "TS rule.", kind: "rule", name: "ts" },
      ],
      diagnostics: [],
    });
  });

  it("throws for paths that are not strings", async () => {
    await expect(loadContextForPaths([1 as unknown as string], { cwd: tempDir() })).rejects.toThrow(
      "contextFor: paths must be an array of strings",
    );
  });
});

describe("glob rules on touch", () => {
  it("matches globs relative to the folder that holds the rule's format folder", async () => {
    const { root, project } = nestedProject({
      "project/.cursor/rules/ts.mdc": "---\nglobs: pkg/**/*.ts\n---\nRoot TS rule.\n",
      "project/.cursor/rules/md.mdc": '---\nglobs: "*.md"\n---\nMarkdown rule.\n',
      "project/pkg/.cursor/rules/sub.mdc": "---\nglobs: sub/*.{ts,tsx}\n---\nNested rule.\n",
    });
    const session = createPromptSession(pinned(root, { cwd: join(project, "pkg") }));
    const got = await session.contextFor(["sub/x.ts"]);
    expect(got.files.map((f) => [f.kind, f.name ?? "", f.path])).toEqual([
      ["context", "", P(project, "pkg/sub/AGENTS.md")],
      ["rule", "ts", P(project, ".cursor/rules/ts.mdc")],
      ["rule", "sub", P(project, "pkg/.cursor/rules/sub.mdc")],
    ]);
    // Once per session; a rule that matched nothing before may match now.
    const again = await session.contextFor(["sub/y.ts", "../README.md"]);
    expect(again.files.map((f) => f.name)).toEqual(["md"]);
    session.close();
  });

  it("reads a comma inside braces as the glob's own, not a separator", async () => {
    const { root, project } = nestedProject({
      "project/.cursor/rules/ts.mdc": "---\nglobs: src/*.{ts,tsx}, docs/**\n---\nTS rule.\n",
    });
    const { rules } = await loadRules({
      cwd: project,
      home: join(root, "home"),
      agentDir: join(root, "agent"),
    });
    expect(rules.map((r) => r.globs)).toEqual([["src/*.{ts,tsx}", "docs/**"]]);
  });

  it("expands braces within caps, and matches the way .gitignore patterns do", () => {
    expect(expandBraces("src/**/*.{ts,tsx}")).toEqual(["src/**/*.ts", "src/**/*.tsx"]);
    expect(expandBraces("{a,b{c,d}}/{x,y}")).toEqual([
      "a/x",
      "a/y",
      "bc/x",
      "bc/y",
      "bd/x",
      "bd/y",
    ]);
    expect(expandBraces("{a}")).toEqual(["{a}"]);
    expect(expandBraces("{a,b")).toEqual(["{a,b"]);
    expect(expandBraces("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}", 5)).toHaveLength(5);
    const m = globMatcher(["*.ts", "!*.test.ts", "./docs/**"]);
    expect(
      ["a.ts", "pkg/sub/x.ts", "x.test.ts", "docs/a/b.md", "x.md", "../a.ts", ""].map(m),
    ).toEqual([true, true, false, true, false, false, false]);
    expect(globMatcher(["x".repeat(600), ""])("x".repeat(600))).toBe(false);
  });
});

describe("session.contextFor", () => {
  it("returns nothing new on the second touch, all again after forgetContext, and starts afresh in a new session", async () => {
    const { root, project } = nestedProject();
    const session = createPromptSession(pinned(root));
    await session.render();
    const first = await session.contextFor(["pkg/sub/x.ts"]);
    expect(first.files.map((f) => f.path)).toEqual([
      P(project, "pkg/AGENTS.md"),
      P(project, "pkg/sub/AGENTS.md"),
    ]);
    expect(await session.contextFor(["pkg/sub/y.ts"])).toEqual({ files: [], diagnostics: [] });
    session.forgetContext();
    expect((await session.contextFor(["pkg/sub/y.ts"])).files).toHaveLength(2);
    session.close();
    await expect(session.contextFor(["pkg/sub/y.ts"])).rejects.toThrow("closed");
    const fresh = createPromptSession(pinned(root));
    expect((await fresh.contextFor(["pkg/sub/y.ts"])).files).toHaveLength(2);
    fresh.close();
  });

  it("appendable: asked only when files come; no keeps none as given, so they come with a later call", async () => {
    const { root, project } = nestedProject();
    const session = createPromptSession(pinned(root));
    await session.render();
    const asked: string[][] = [];
    const no = (files: readonly { path: string }[]) => {
      asked.push(files.map((f) => f.path));
      return false;
    };
    expect(await session.contextFor(["pkg/sub/x.ts"], { appendable: no })).toEqual({
      files: [],
      diagnostics: [],
    });
    expect(asked).toEqual([[P(project, "pkg/AGENTS.md"), P(project, "pkg/sub/AGENTS.md")]]);
    // A throw keeps none either.
    const boom = () => {
      throw new Error("boom");
    };
    await expect(session.contextFor(["pkg/sub/y.ts"], { appendable: boom })).rejects.toThrow(
      "boom",
    );
    const yes = await session.contextFor(["pkg/sub/y.ts"], { appendable: () => true });
    expect(yes.files).toHaveLength(2);
    // Nothing comes: not asked.
    expect(await session.contextFor(["pkg/sub/x.ts"], { appendable: no })).toEqual({
      files: [],
      diagnostics: [],
    });
    expect(asked).toHaveLength(1);
    session.close();
  });

  it("uses the last render's options: noContextFiles leaves context files out", async () => {
    const { root } = nestedProject();
    const session = createPromptSession(pinned(root));
    await session.render({ noContextFiles: true });
    expect(await session.contextFor(["pkg/sub/x.ts"])).toEqual({ files: [], diagnostics: [] });
    session.close();
  });

  it("does not change the system prompt", async () => {
    const { root } = nestedProject();
    const session = createPromptSession(pinned(root));
    const before = await session.render();
    await session.contextFor(["pkg/sub/x.ts"]);
    const after = await session.render();
    expect(after.result.text).toBe(before.result.text);
    expect(after.changes).toBeUndefined();
    session.close();
  });
});
