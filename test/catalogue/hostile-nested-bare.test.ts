import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import {
  projectReach,
  projectReachSync,
  readRepoText,
  readRepoTextSync,
} from "../../src/repo-files/index.js";
import { createPromptSession } from "../../src/session/index.js";
import { tempDir } from "../api/_helpers.js";
import { buildLayout, type Layout } from "./_fixture.js";

// Review rev41a (F3, low-medium): a BARE clone of your repository inside a
// hostile checkout or tarball W (`W/plugins/mine.git`, `git clone --bare`, a
// mirror cache), the token of your remote URL in its `config`, had no `.git`
// entry, so it was not "a repository of its own" for the nested-repository
// check: `W/AGENTS.md` a link to `plugins/mine.git/config` and
// `W/plugins/AGENTS.md` importing `@./mine.git/config` put the token in the
// prompt, render trusted and untrusted, on touch too. A folder git takes for
// a git folder (`HEAD`, `objects/`, `refs/`) is now a repository of its own
// as a clone is, unless it is the root's own `.git` folder or a submodule's
// or worktree's git folder in it.

const TOKEN = /MARKER-TOKEN/g;

/** A bare clone's files at `at` (relative to the case's root). */
function bare(at: string): Layout {
  return [
    [`${at}/HEAD`, "ref: refs/heads/main\n"],
    [`${at}/objects/info`, { dir: true }],
    [`${at}/refs/heads`, { dir: true }],
    [
      `${at}/config`,
      '[core]\n\tbare = true\n[remote "origin"]\n\turl = https://me:MARKER-TOKEN@example.com/mine.git\n',
    ],
  ];
}

/** W as a checkout (its `.git` folder, a submodule's git folder in it) or a tarball (none). */
async function layout(kind: "checkout" | "tarball"): Promise<{ home: string; w: string }> {
  const base = tempDir();
  await buildLayout(base, "nested-bare", [
    ["home/.pi/agent", { dir: true }],
    ...bare("home/work/W/plugins/mine.git"),
    ...bare("home/work/W/mine.git"),
    ["home/work/W/AGENTS.md", { symlink: "plugins/mine.git/config" }],
    ["home/work/W/plugins/AGENTS.md", "W-PLUGINS\n@./mine.git/config\n@../mine.git/config\n"],
    ["home/work/W/plugins/x/y.ts", ""],
    ["home/work/W/root.md", { symlink: "mine.git/config" }],
    ...(kind === "checkout"
      ? ([
          ...bare("home/work/W/.git"),
          ...bare("home/work/W/.git/modules/sub"),
          ["home/work/W/own.md", { symlink: ".git/config" }],
          ["home/work/W/sub.md", { symlink: ".git/modules/sub/config" }],
        ] as const)
      : []),
  ]);
  const home = join(base, "home");
  return { home, w: join(home, "work", "W") };
}

describe("hostile repository: a bare clone of yours inside a checkout or tarball", () => {
  for (const kind of ["checkout", "tarball"] as const) {
    for (const trusted of [true, false]) {
      const what = `W a ${kind}, ${trusted ? "trusted" : "untrusted"}`;

      it(`render in W/plugins/x, ${what}: its config is not W's`, async () => {
        const { home, w } = await layout(kind);
        const r = await renderSystemPrompt({
          cwd: join(w, "plugins", "x"),
          home,
          agentDir: join(home, ".pi", "agent"),
          projectTrusted: trusted,
        });
        expect(r.text.match(TOKEN) ?? []).toEqual([]);
        expect(r.text).toContain("W-PLUGINS");
        const refused = r.diagnostics.filter((d) => d.message.includes("a repository of its own"));
        expect(refused.map((d) => d.code).sort()).toEqual(
          kind === "checkout"
            ? ["context-outside-project", "import-outside", "import-outside"]
            : // A tarball's plugins/AGENTS.md is its folder's own project: `../` leaves it.
              ["context-outside-project", "import-outside"],
        );
      });

      it(`touch W/plugins/x/y.ts from a session in W, ${what}: no token`, async () => {
        const { home, w } = await layout(kind);
        const session = createPromptSession({
          cwd: w,
          home,
          agentDir: join(home, ".pi", "agent"),
          projectTrusted: trusted,
        });
        try {
          const r = await session.contextFor([join(w, "plugins", "x", "y.ts")]);
          const given = r.files.map((f) => f.content).join("\n");
          expect(given.match(TOKEN) ?? []).toEqual([]);
          expect(given).toContain("W-PLUGINS");
        } finally {
          session.close();
        }
      });
    }
  }

  it("async and sync door: a link into a bare clone, below W or at its top level, is refused; W's own git folder is W's", async () => {
    const { home, w } = await layout("checkout");
    const reach = await projectReach({ start: w, home, trusted: true });
    const sync = projectReachSync({ start: w, home });
    const read = async (name: string) => {
      const r = await readRepoText(join(w, name), { reach });
      const s = readRepoTextSync(join(w, name), { reach: sync });
      const seen = (x: typeof s) => (x.ok ? "read" : x.diagnostics[0]?.code);
      return [seen(r), seen(s)];
    };
    expect(await read("AGENTS.md")).toEqual(["file-outside-project", "file-outside-project"]);
    expect(await read("root.md")).toEqual(["file-outside-project", "file-outside-project"]);
    // The root's own `.git` folder and its submodule's git folder are read as before.
    expect(await read("own.md")).toEqual(["read", "read"]);
    expect(await read("sub.md")).toEqual(["read", "read"]);
  });
});
