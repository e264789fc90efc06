import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderScenarioFiles } from "../../src/author/snapshot/snapshot.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Review rev51b F4 (low): with `$XDG_CACHE_HOME` outside your home folder (a CI's
// /builds/alice/.cache, /var/cache/alice), an import one or two `../` past `<sandboxes>`
// wrote the cache folder's real path, your user name in it, into the committed diagnostics
// golden. The cache folder is `<cache>` now, and any other absolute path a diagnostic names
// `<outside>/` and its name.

const saved = process.env.XDG_CACHE_HOME;
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
});

describe("hostile repository: a golden names neither your cache folder nor the folders above it by their real paths", () => {
  it("imports climbing past the sandboxes are written <cache>/… and <outside>/…", async () => {
    const root = tempDir();
    const xdg = join(root, "cache-alice");
    process.env.XDG_CACHE_HOME = xdg;
    writeFiles(root, {
      "snaps/a.scenario.yaml": "agentDir: agent\n",
      "snaps/agent/AGENTS.md":
        "mine\n@../../../../../x3\n@../../../../../../x4\n@../../../../../../../x5\n",
    });
    const got = await renderScenarioFiles(join(root, "snaps/a.scenario.yaml"), {
      sandboxDir: join(xdg, "sysprompt", "snapshots"),
    });
    const lines = got.diagnostics
      .split("\n")
      .filter((l) => l.includes("import-outside"))
      .map((l) => /leads to (\S+),/.exec(l)?.[1]);
    expect(lines).toEqual(["<cache>/x3", "<outside>/x4", "<outside>/x5"]);
    expect(got.diagnostics).not.toContain(root);
    expect(got.diagnostics).not.toContain("alice");
  });
});
