import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { preparePrompt, renderPrepared } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// Review rev80c (fx80c's recorded limit): `render` warned of a rule's glob the
// door refuses (`rule-glob-refused`: a glob over 512 characters, more than two
// `**`, past a rule's 64), of a rule file's frontmatter that is not YAML, of a
// context file's problems, but `check`, the command a project runs in its CI,
// read no rule or context files and said none of it: a clean `check --strict`
// beside a render's warnings. check now says what a render of the same project
// (the CLI's: config files read) says, beside its own template checks.

function project(files: Record<string, string>) {
  const root = tempDir();
  for (const [path, text] of Object.entries({
    "p/.git/HEAD": "ref: refs/heads/main\n",
    ...files,
  })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const options = {
    cwd: join(root, "p"),
    agentDir: join(root, "home", ".pi", "agent"),
    home: join(root, "home"),
    env: {},
  };
  mkdirSync(options.agentDir, { recursive: true });
  return { root, options };
}

const key = (d: { level: string; code: string; path?: string; message: string }) =>
  `${d.level} ${d.code} ${d.path ?? ""} ${d.message}`;

describe("hostile repository: check says what a render says", () => {
  it("check-says-render: a rule's refused glob, yours and the repository's, and a rule's bad frontmatter", async () => {
    const long = `src/${"a".repeat(600)}.ts`;
    const { root, options } = project({
      "home/.pi/agent/rules/long.md": `---\nglobs: "${long}"\n---\nMINE\n`,
      "p/.cursor/rules/deep.mdc": '---\nglobs: "**/packages/**/test/**/*.ts"\n---\nTHEIRS\n',
      "p/.cursor/rules/bad.mdc": "---\nglobs: [a\nbad: : :\n---\nX\n",
    });
    const rendered = renderPrepared(await preparePrompt({ ...options, configFiles: true }));
    const refused = rendered.diagnostics.filter((d) => d.code === "rule-glob-refused");
    expect(refused.map((d) => d.path)).toEqual([
      join(root, "home", ".pi", "agent", "rules", "long.md"),
      join(root, "p", ".cursor", "rules", "deep.mdc"),
    ]);
    const report = await checkProject(options);
    const said = new Set(report.diagnostics.map(key));
    // Every diagnostic of the render is one of check's.
    expect(rendered.diagnostics.filter((d) => !said.has(key(d)))).toEqual([]);
    expect(report.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(["rule-glob-refused", "rule-frontmatter-not-yaml"]),
    );
    expect(report.counts.warning).toBeGreaterThanOrEqual(3);
  });

  it("untrusted, the repository's rule files are still read by a render, and said by check", async () => {
    const { root, options } = project({
      "p/.cursor/rules/deep.mdc": '---\nglobs: "**/packages/**/test/**/*.ts"\n---\nTHEIRS\n',
    });
    const report = await checkProject({ ...options, projectTrusted: false });
    expect(
      report.diagnostics.filter((d) => d.code === "rule-glob-refused").map((d) => d.path),
    ).toEqual([join(root, "p", ".cursor", "rules", "deep.mdc")]);
  });

  it("a template check found a problem in is said once, by check's own finding", async () => {
    const { options } = project({
      "p/.pi/sections/team.md": '---\norder: 75\n---\n{{shout "x"}}\n',
    });
    const report = await checkProject(options);
    const team = report.diagnostics.filter((d) => d.path?.endsWith("team.md"));
    expect(team.map((d) => d.code)).toEqual(["unknown-helper"]);
  });
});
