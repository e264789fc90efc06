import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderScenario } from "../../src/author/snapshot/snapshot.js";
import { ensureBuilt } from "../catalogue/_built.js";
import { docPart, fenced } from "../docs/_docs.js";
import { type DocsProject, docsProject, sh } from "./_docs-project.js";

// The docs' recipe for snapshot-testing your own project's prompt, run as
// written: its sh block in a project of its own (see _docs-project.ts), and
// its vitest test's call checked against the golden the CLI wrote.

/** The fenced blocks of `lang` in the recipe's part of docs/testing.md. */
function blocks(lang: string): string[] {
  return fenced(docPart("docs/testing.md", "### Snapshot-testing your own project's prompt"), lang);
}

function project(): DocsProject {
  return docsProject({
    "AGENTS.md": "Run npm test before you commit.\n",
    ".pi/sections/team.md": "---\norder: 65\n---\nThe team: payments.\n",
  });
}

describe("the docs' snapshot recipe", () => {
  it("writes the golden, passes, and fails with a diff once the prompt drifts", {
    timeout: 120_000,
  }, async () => {
    await ensureBuilt();
    const [recipe] = blocks("sh");
    expect(recipe).toContain("npx sysprompt snapshot prompt.scenario.yaml --update");
    const p = project();
    const first = sh(recipe ?? "", p);
    expect([first.status, first.stderr]).toEqual([0, ""]);
    const golden = readFileSync(join(p.dir, "prompt.md"), "utf8");
    expect(golden).toContain("\n<team>\nThe team: payments.\n</team>\n");
    expect(golden).toContain("Current working directory: <scenario>\n");

    // The vitest test's call gives exactly the golden.
    const [test] = blocks("ts");
    expect(test).toContain('renderScenario("prompt.scenario.yaml")');
    expect(test).toContain('toMatchFileSnapshot("../prompt.md")');
    expect(
      await renderScenario(join(p.dir, "prompt.scenario.yaml"), {
        sandboxDir: join(p.root, "cache", "sysprompt", "snapshots"),
      }),
    ).toBe(golden);

    // The check line, after an edit: exit 1 and a diff that shows it.
    writeFileSync(
      join(p.dir, ".pi", "sections", "team.md"),
      "---\norder: 65\n---\nThe team: billing.\n",
    );
    const check =
      (recipe ?? "")
        .split("\n")
        .filter((l) => l.startsWith("npx "))
        .at(-1) ?? "";
    expect(check).not.toContain("--update");
    const drift = sh(check, p);
    expect(drift.status).toBe(1);
    expect(drift.stdout).toContain("+The team: billing.");
  });
});
