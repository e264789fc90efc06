// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is the placeholder syntax under test, not a forgotten template literal.
import { describe, expect, it } from "vitest";
import { LOADERS, scenario } from "./_helpers.js";

describe.each(LOADERS)("%s", (_name, load) => {
  it("reads names, descriptions, hints and content from the user folder", async () => {
    const { root, ...options } = scenario("descriptions");
    const dir = `${root}/agent/prompts`;
    expect(await load(options)).toEqual({
      templates: [
        {
          name: "blank-frontmatter",
          description: "Explain $@",
          content: "Explain $@\n",
          filePath: `${dir}/blank-frontmatter.md`,
          source: "user",
        },
        {
          name: "empty",
          description: "",
          content: "",
          filePath: `${dir}/empty.md`,
          source: "user",
        },
        {
          name: "exactly-sixty",
          description: "123456789012345678901234567890123456789012345678901234567890",
          content: "123456789012345678901234567890123456789012345678901234567890\n",
          filePath: `${dir}/exactly-sixty.md`,
          source: "user",
        },
        {
          name: "first-line",
          description: "Summarise the file $1 in plain words.",
          content: "\n   \n  Summarise the file $1 in plain words.  \nThen list open questions.\n",
          filePath: `${dir}/first-line.md`,
          source: "user",
        },
        {
          name: "long-line",
          description: "Write a migration plan that moves every caller of the old AP...",
          content:
            "Write a migration plan that moves every caller of the old API onto the new one\n",
          filePath: `${dir}/long-line.md`,
          source: "user",
        },
        {
          name: "numeric-description",
          description: "Numbers are not descriptions",
          content: "Numbers are not descriptions\n",
          filePath: `${dir}/numeric-description.md`,
          source: "user",
        },
        {
          name: "with-frontmatter",
          description: "Review the staged changes",
          argumentHint: "<file> [focus]",
          content: "Review $1 with a focus on ${2:-correctness}.\n",
          filePath: `${dir}/with-frontmatter.md`,
          source: "user",
        },
      ],
      diagnostics: [],
    });
  });

  it("lets the project template win over the user one and says so", async () => {
    const { root, ...options } = scenario("project-wins");
    const user = `${root}/agent/prompts`;
    const project = `${root}/project/.pi/prompts`;
    expect(await load(options)).toEqual({
      templates: [
        {
          name: "only-user",
          description: "Only the user has this",
          content: "Only the user has this\n",
          filePath: `${user}/only-user.md`,
          source: "user",
        },
        {
          name: "review",
          description: "Project review of $1",
          content: "Project review of $1\n",
          filePath: `${project}/review.md`,
          source: "project",
        },
      ],
      diagnostics: [
        {
          level: "warning",
          code: "user-text-left-out",
          message: `your prompt template "/review" (${user}/review.md) is left out: the project's ${project}/review.md of the same name takes its place (a trusted project's template of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back`,
          path: `${project}/review.md`,
        },
      ],
    });
  });

  it("lets an explicit path win over project and user, file or folder", async () => {
    const { root, ...options } = scenario("option-wins");
    const user = `${root}/agent/prompts`;
    const project = `${root}/project/.pi/prompts`;
    const result = await load({
      ...options,
      paths: ["../extra/review.md", `${root}/extra-folder`],
    });
    expect(result).toEqual({
      templates: [
        {
          name: "deploy",
          description: "Explicit deploy from a folder",
          content: "Explicit deploy from a folder\n",
          filePath: `${root}/extra-folder/deploy.md`,
          source: "option",
        },
        {
          name: "review",
          description: "Explicit review",
          content: "Explicit review\n",
          filePath: `${root}/extra/review.md`,
          source: "option",
        },
      ],
      diagnostics: [
        {
          level: "info",
          code: "name-collision",
          message: `prompt template "/review": ${root}/extra/review.md (option) wins over ${project}/review.md (project)`,
          path: `${project}/review.md`,
        },
        {
          level: "info",
          code: "name-collision",
          message: `prompt template "/deploy": ${root}/extra-folder/deploy.md (option) wins over ${project}/deploy.md (project)`,
          path: `${project}/deploy.md`,
        },
        // Your template lost to the explicit path in the end, not to the project's.
        {
          level: "info",
          code: "name-collision",
          message: `prompt template "/review": ${root}/extra/review.md (option) wins over ${user}/review.md (user)`,
          path: `${user}/review.md`,
        },
      ],
    });
  });

  it("keeps the first of two explicit templates with one name, with a warning", async () => {
    const { root, ...options } = scenario("same-layer-collision");
    const result = await load({ ...options, paths: [`${root}/first`, `${root}/second`] });
    expect(result).toEqual({
      templates: [
        {
          name: "dup",
          description: "First",
          content: "First\n",
          filePath: `${root}/first/dup.md`,
          source: "option",
        },
      ],
      diagnostics: [
        {
          level: "warning",
          code: "name-collision",
          message: `prompt template "/dup": ${root}/first/dup.md (option) wins over ${root}/second/dup.md (option)`,
          path: `${root}/second/dup.md`,
        },
      ],
    });
  });

  it("does not call one file reached twice a collision", async () => {
    const { root, ...options } = scenario("same-file-twice");
    const result = await load({ ...options, paths: [".pi/prompts", ".pi/prompts/twice.md"] });
    expect(result).toEqual({
      templates: [
        {
          name: "twice",
          description: "Listed twice",
          content: "Listed twice\n",
          filePath: `${root}/project/.pi/prompts/twice.md`,
          source: "option",
        },
      ],
      diagnostics: [],
    });
  });

  it("reads YAML that is not valid line by line, skips refused frontmatter with a located warning, keeps the rest", async () => {
    const { root, ...options } = scenario("invalid-yaml");
    const dir = `${root}/agent/prompts`;
    expect(await load(options)).toEqual({
      templates: [
        {
          // Not valid YAML: read line by line, as other agents read it.
          name: "broken",
          description: "fine",
          argumentHint: "[unclosed",
          content: "Never used\n",
          filePath: `${dir}/broken.md`,
          source: "user",
        },
        {
          name: "good",
          description: "Still loaded",
          content: "Still loaded\n",
          filePath: `${dir}/good.md`,
          source: "user",
        },
        {
          // An unclosed `---` is plain text for the shared frontmatter parser.
          name: "unclosed",
          description: "---",
          content: "---\nNo closing fence, so this is plain text\n",
          filePath: `${dir}/unclosed.md`,
          source: "user",
        },
      ],
      diagnostics: [
        {
          level: "warning",
          code: "frontmatter-not-yaml",
          message:
            'frontmatter is not valid YAML (Flow sequence in block collection must be sufficiently indented and end with a ]); read line by line as "key: value", the way other agents\' readers take it; quote the value to make it YAML',
          line: 3,
          column: 16,
          path: `${dir}/broken.md`,
        },
        {
          level: "warning",
          code: "frontmatter-engine",
          message:
            'prompt template skipped: "---js" frontmatter is executable code and is never run; use YAML',
          line: 1,
          column: 1,
          path: `${dir}/executable.md`,
        },
        {
          level: "warning",
          code: "frontmatter-not-mapping",
          message: "prompt template skipped: frontmatter must be a YAML mapping of keys to values",
          line: 2,
          column: 1,
          path: `${dir}/list.md`,
        },
        {
          level: "warning",
          code: "frontmatter-unclosed",
          message: "frontmatter starts with --- but has no closing --- line; read as plain text",
          line: 1,
          column: 1,
          path: `${dir}/unclosed.md`,
        },
      ],
    });
  });

  it("locates a YAML error on the line it is on", async () => {
    const { root, ...options } = scenario("invalid-yaml");
    const { diagnostics } = await load(options);
    expect(diagnostics.find((d) => d.code === "frontmatter-not-yaml")?.line).toEqual(3);
  });

  it("skips the project folder when it is not trusted, with an info diagnostic", async () => {
    const { root, ...options } = scenario("untrusted-project");
    expect(await load({ ...options, projectTrusted: false })).toEqual({
      templates: [
        {
          name: "mine",
          description: "From the user",
          content: "From the user\n",
          filePath: `${root}/agent/prompts/mine.md`,
          source: "user",
        },
      ],
      diagnostics: [
        {
          level: "info",
          code: "project-untrusted",
          message: "project prompt templates skipped: the project is not trusted",
          path: `${root}/project/.pi/prompts`,
        },
      ],
    });
  });

  it("says nothing about an untrusted project that has no prompts folder", async () => {
    const { root: _root, ...options } = scenario("descriptions");
    // The descriptions scenario has no project folder and no diagnostics.
    expect(await load({ ...options, projectTrusted: false })).toEqual(await load(options));
  });

  it("reads the project folder named by projectDir", async () => {
    const { root, ...options } = scenario("custom-project-dir");
    expect(await load({ ...options, projectDir: ".agents" })).toEqual({
      templates: [
        {
          name: "custom",
          description: "From .agents",
          content: "From .agents\n",
          filePath: `${root}/project/.agents/prompts/custom.md`,
          source: "project",
        },
      ],
      diagnostics: [],
    });
  });

  it("reads only the explicit paths when includeDefaults is false", async () => {
    const { root, ...options } = scenario("project-wins");
    const result = await load({
      ...options,
      includeDefaults: false,
      paths: ["../agent/prompts/only-user.md"],
    });
    expect(result).toEqual({
      templates: [
        {
          name: "only-user",
          description: "Only the user has this",
          content: "Only the user has this\n",
          filePath: `${root}/agent/prompts/only-user.md`,
          source: "option",
        },
      ],
      diagnostics: [],
    });
  });

  it("resolves explicit paths against cwd and ~, and reports unusable ones", async () => {
    const { root, ...options } = scenario("explicit-paths");
    const result = await load({
      ...options,
      paths: [
        "~/my-prompts",
        "local/relative.md",
        "folder",
        "local/notes.txt",
        "missing.md",
        "~/missing-folder",
      ],
    });
    expect(result).toEqual({
      templates: [
        {
          name: "a",
          description: "Folder a",
          content: "Folder a\n",
          filePath: `${root}/project/folder/a.md`,
          source: "option",
        },
        {
          name: "b",
          description: "Folder b",
          content: "Folder b\n",
          filePath: `${root}/project/folder/b.md`,
          source: "option",
        },
        {
          name: "from-home",
          description: "From home",
          content: "From home\n",
          filePath: `${root}/home/my-prompts/from-home.md`,
          source: "option",
        },
        {
          name: "relative",
          description: "Relative file",
          content: "Relative file\n",
          filePath: `${root}/project/local/relative.md`,
          source: "option",
        },
      ],
      diagnostics: [
        {
          level: "error",
          code: "path-not-markdown",
          message: "prompt template path is not a .md file; skipped",
          path: `${root}/project/local/notes.txt`,
        },
        {
          level: "error",
          code: "path-missing",
          message: "prompt template path not found",
          path: `${root}/project/missing.md`,
        },
        {
          level: "error",
          code: "path-missing",
          message: "prompt template path not found",
          path: `${root}/home/missing-folder`,
        },
      ],
    });
  });

  it("reports a folder named like a template instead of reading it", async () => {
    const { root, ...options } = scenario("folder-named-md");
    const dir = `${root}/agent/prompts`;
    expect(await load(options)).toEqual({
      templates: [
        {
          name: "ok",
          description: "Readable",
          content: "Readable\n",
          filePath: `${dir}/ok.md`,
          source: "user",
        },
      ],
      diagnostics: [
        {
          level: "warning",
          code: "file-not-regular",
          message: "a folder; skipped without opening it",
          path: `${dir}/looks-like-a-file.md`,
        },
      ],
    });
  });
});
