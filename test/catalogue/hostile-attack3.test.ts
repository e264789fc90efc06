import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { tempDir } from "../api/_helpers.js";
import { buildLayout } from "./_fixture.js";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// The third hostile review (#24's closing attack review): each case is an
// attack on the merged one-door work that got through, with a marker the
// prompt (or a tool result) must never hold.

const MARK = "MARKER-SECRET";

const noMarker = (bad: Rendered) => {
  expect(bad.result.text).not.toContain(MARK);
  expect(JSON.stringify(bad.data)).not.toContain(MARK);
};

/** `.gemini/settings.json` naming the project's `.env` as Gemini CLI's context file. */
const GEMINI_NAMES_ENV = '{ "context": { "fileName": [".env"] } }\n';

const cases: CatalogueCase[] = [
  {
    name: "attack3-gemini-setting-names-env",
    layout: [
      ["project/.env", `API_TOKEN=${MARK}\n`],
      ["project/app/.gemini/settings.json", GEMINI_NAMES_ENV],
    ],
    bad: ["project/app/.gemini"],
    options: { projectTrusted: false },
    expected: (root) => [
      // A hidden name is left out of the names, trusted or not (review rev38a L2).
      diag(
        "warning",
        "gemini-settings",
        'context.fileName ".env" is a hidden name; left out: no hidden file is read as context',
        join(root, "project/app/.gemini/settings.json"),
      ),
    ],
    verify: noMarker,
  },
  {
    name: "attack3-gemini-settings-link-to-env",
    layout: [
      ["project/.env", `${MARK}=1\n`],
      ["project/app/.gemini/settings.json", { symlink: "../../.env" }],
    ],
    bad: ["project/app/.gemini"],
    options: { projectTrusted: false },
    expected: (root) => [
      diag(
        "warning",
        "file-private",
        "not read: the project is not trusted and it resolves to .env, which is hidden (a name that starts with a dot); trust the project to read it",
        join(root, "project/app/.gemini/settings.json"),
      ),
    ],
    // The parse error of the file read quoted its first characters in a diagnostic.
    verify: (bad) => {
      noMarker(bad);
      expect(JSON.stringify(bad.result.diagnostics)).not.toContain("MARKER");
    },
  },
  {
    // Linked to `/`, the walk listed 5,000 folders of the machine (past the
    // deadline in a render) to find SKILL.md files the door then refused one by one.
    name: "attack3-skills-root-linked-out",
    layout: [
      ["outside/one/SKILL.md", "---\nname: one\ndescription: Outside skill one.\n---\nOne.\n"],
      ["outside/two/SKILL.md", "---\nname: two\ndescription: Outside skill two.\n---\nTwo.\n"],
      ["project/app/.agents/skills", { symlink: "../../../outside" }],
    ],
    bad: ["project/app/.agents"],
    expected: (root) => [
      diag(
        "warning",
        "file-outside-project",
        `not read: it resolves to ${join(root, "outside")}, outside the project root ${join(root, "project")}`,
        join(root, "project/app/.agents/skills"),
      ),
    ],
  },
];

describe("catalogue: the third attack review", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined));

  it("attack3-gemini-setting-names-env-on-touch: an untrusted project's nested .env is no instruction file", async () => {
    const root = tempDir();
    await buildLayout(root, "", [
      ["project/.git/HEAD", "ref: refs/heads/main\n"],
      ["project/.gemini/settings.json", GEMINI_NAMES_ENV],
      ["project/sub/.env", `API_TOKEN=${MARK}\n`],
      ["project/sub/a.ts", ""],
      ["home", { dir: true }],
    ]);
    const project = join(root, "project");
    const got = await loadContextForPaths(["sub/a.ts"], {
      cwd: project,
      home: join(root, "home"),
      projectTrusted: false,
    });
    // The hidden name is not looked for at all (review rev38a L2); the settings' problems are the rules step's to say.
    expect(got).toEqual({ files: [], diagnostics: [] });
  });
});
