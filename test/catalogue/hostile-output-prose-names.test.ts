import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runByNameOf } from "../../src/cli/commands/_output-file.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// rev64d F7: `-o docs/procfile.md`, `docs/lefthook.md`, `docs/.env.md` (and `.txt`) were
// refused as files "another program runs or trusts line by line": the `*` of `Procfile.*`,
// `lefthook.*` and `.env.*` took any ending. foreman reads `Procfile`, lefthook
// `lefthook.{yml,yaml,json,jsonc,toml}`, dotenv loaders `.env.<mode>`: none a prompt's `.md`,
// `.markdown` or `.txt`.

describe("hostile-output-prose-names: a prompt saved as text beside such tools' docs is written", () => {
  it("a final .md, .markdown or .txt is no run-by-name file; the tools' own names still are", () => {
    for (const name of [
      "procfile.md",
      "Procfile.txt",
      "lefthook.md",
      ".lefthook.markdown",
      "lefthook-local.txt",
      ".env.md",
      ".env.txt",
    ]) {
      expect(runByNameOf(`/srv/p/docs/${name}`), name).toBeUndefined();
    }
    for (const name of [
      "Procfile.dev",
      "lefthook.yml",
      ".lefthook.toml",
      ".env.local",
      ".env.production",
    ]) {
      expect(runByNameOf(`/srv/p/${name}`), name).toBeDefined();
    }
  });

  it("render -o docs/procfile.md is written", async () => {
    const root = tempDir();
    for (const dir of ["p/.git", "p/docs", "home", "agent"])
      mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, "p/AGENTS.md"), "# P\n");
    const out = await cli(root, join(root, "p"), ["render", "-o", "docs/procfile.md"]);
    expect(out.code).toBe(0);
    expect(existsSync(join(root, "p/docs/procfile.md"))).toBe(true);
  });
});
