import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../catalogue/_built.js";
import { docPart, fenced } from "../docs/_docs.js";
import { docsProject, sh } from "./_docs-project.js";

// The sysprompt.yaml example of docs/options.md, saved where its first line
// says (the agent dir's file), sets every key it shows and nothing complains:
// the page's example is a file a reader can copy.

describe("the docs' config file example", () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 300_000);

  it("as ~/.pi/agent/sysprompt.yaml, sets each of its keys from that file, with no warning", {
    timeout: 120_000,
  }, () => {
    const [example = ""] = fenced(docPart("docs/options.md", "## Config file"), "yaml");
    expect(example.split("\n")[0]).toMatch(/^# ~\/\.pi\/agent\/sysprompt\.yaml\b/);
    const p = docsProject({ "AGENTS.md": "Run npm test before you commit.\n" });
    const file = join(p.root, "home", ".pi", "agent", "sysprompt.yaml");
    mkdirSync(join(p.root, "home", ".pi", "agent"), { recursive: true });
    writeFileSync(file, example);
    const out = sh("sysprompt explain --json", p);
    expect([out.status, out.stderr]).toEqual([0, ""]);
    const report = JSON.parse(out.stdout) as {
      settings: { key: string; at?: string }[];
      diagnostics: { level: string; code: string }[];
    };
    const keys = [
      ...example.matchAll(/^([a-z-]+):/gm),
      ...example.matchAll(/^ {2}([a-z_]+):/gm),
    ].map((m) => m[1]);
    expect(keys.length).toBeGreaterThanOrEqual(10);
    const fromFile = report.settings
      .filter((s) => s.at?.startsWith(`user:${file}:`))
      .map((s) => s.key.replace(/^vars\./, ""));
    expect(fromFile.sort()).toEqual(keys.filter((k) => k !== "vars").sort());
    expect(report.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
  });
});
