import { closeSync, linkSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cpuTimed } from "../gather/_timed.js";
import { homeWithKey, put, renderIn } from "./_private-kit.js";

// A cache of thousands of files in a private place (kubectl's `~/.kube/cache/http`, the aws
// cli's `~/.aws/cli/cache`) was read whole and counted toward the 4,096 bound of the look at your
// private places: past it every hard-linked file of yours (pnpm, Nix, `cp -al`) was refused as
// `file-private` (review rev103a F3). Only files of more than one name count now, the walk is
// streamed and stops by the clock, and known caches are not walked.

function cache(dir: string, n: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) closeSync(openSync(join(dir, `${i}`.padStart(7, "0")), "w"));
}

describe("hostile-private-cache-scale: 5,000-entry caches in ~/.kube and ~/.aws, your AGENTS.md a hard link", () => {
  it("your hard-linked AGENTS.md is read, in bounded CPU", async () => {
    const { root, home } = homeWithKey();
    cache(join(home, ".kube/cache/http"), 5000);
    cache(join(home, ".aws/cli/cache"), 5000);
    put(join(home, "notes/agents.md"), "USER-AGENTS-MARKER\n");
    const agentDir = join(home, ".pi/agent");
    mkdirSync(agentDir, { recursive: true });
    linkSync(join(home, "notes/agents.md"), join(agentDir, "AGENTS.md"));
    const { cpuMs, value } = await cpuTimed(() => renderIn(root, agentDir));
    expect(value.diagnostics.filter((d) => d.code === "file-private")).toEqual([]);
    expect(value.text).toContain("USER-AGENTS-MARKER");
    expect(cpuMs).toBeLessThan(3000);
  });
});
