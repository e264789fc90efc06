import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir } from "../api/_helpers.js";
import { buildLayout } from "./_fixture.js";

// A project's `.gemini/settings.json` sets `context.fileName` to
// ["credentials"], a plain name, and the clone keeps your keys in
// `.aws/credentials`. docs/trust.md decided a settings name never names a
// hidden file, trusted or not, but on touch only the name itself was
// checked: in a trusted project `hook codex` after `cat .aws/config` gave
// `.aws/credentials` to the model (review rev101a F2, medium), and so did
// a link `lib/credentials -> ../.aws/credentials`. A file a settings name
// finds is now refused when any name on its path below its project's top
// (as found, or real) is hidden, render and touch asking the one test.

const SECRETS = /MARKER-[A-Z]+/g;

async function layout(): Promise<{ home: string; p: string }> {
  const base = tempDir();
  await buildLayout(base, "gemini-filename-hidden-folder", [
    ["home/.pi/agent", { dir: true }],
    ["home/work/P/.git/HEAD", "ref: refs/heads/main\n"],
    ["home/work/P/AGENTS.md", "Project.\n"],
    ["home/work/P/.gemini/settings.json", '{"context":{"fileName":["credentials"]}}\n'],
    ["home/work/P/.aws/credentials", "aws_secret_access_key = MARKER-AWS\n"],
    ["home/work/P/.aws/config", "[default]\nregion=x\n"],
    // The same settings where a render started in the hidden folder reads them.
    ["home/work/P/.aws/.gemini/settings.json", '{"context":{"fileName":["credentials"]}}\n'],
    ["home/work/P/lib/credentials", { symlink: "../.aws/credentials" }],
    ["home/work/P/lib/x.ts", ""],
    // A plain folder's file of that name is the repository's own.
    ["home/work/P/docs/credentials", "DOCS-CREDENTIALS-NOTES\n"],
    ["home/work/P/docs/y.md", ""],
  ]);
  const home = join(base, "home");
  return { home, p: join(home, "work", "P") };
}

describe("hostile repository: context.fileName naming a file in a hidden folder", () => {
  for (const trusted of [true, false]) {
    const what = trusted ? "trusted" : "untrusted";

    it(`touch, ${what}: not .aws/credentials, nor through a link; docs/credentials given`, async () => {
      const { home, p } = await layout();
      const r = await loadContextForPaths(
        [join(p, ".aws/config"), join(p, "lib/x.ts"), join(p, "docs/y.md")],
        { cwd: p, home, projectTrusted: trusted },
      );
      expect(
        r.files
          .map((f) => f.content)
          .join("\n")
          .match(SECRETS) ?? [],
      ).toEqual([]);
      expect(r.files.map((f) => f.path.slice(p.length + 1))).toEqual(["docs/credentials"]);
      expect(
        r.diagnostics
          .filter((d) => d.path === join(p, ".aws/credentials"))
          .map((d) => [d.code, d.message]),
      ).toEqual([
        [
          "context-ignored",
          "not loaded: .aws/credentials is hidden (a name that starts with a dot), so it is not written for this project's agent",
        ],
      ]);
    });

    it(`render from .aws, ${what}: its settings read no credentials there`, async () => {
      const { home, p } = await layout();
      const r = await renderSystemPrompt({
        cwd: join(p, ".aws"),
        home,
        agentDir: join(home, ".pi", "agent"),
        projectTrusted: trusted,
      });
      expect(r.text.match(SECRETS) ?? []).toEqual([]);
      expect(r.text).toContain("Project.");
    });
  }
});
