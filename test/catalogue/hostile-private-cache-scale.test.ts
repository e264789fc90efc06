import { closeSync, linkSync, mkdirSync, openSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { READ_ONLY_STORES } from "../../src/repo-files/own-private.js";
import { cpuTimed } from "../gather/_timed.js";
import { homeWithKey, put, renderIn } from "./_private-kit.js";

// A cache of thousands of files in a private place (kubectl's `~/.kube/cache/http`, the aws
// cli's `~/.aws/cli/cache`) was read whole and counted toward the 4,096 bound of the look at your
// private places: past it every hard-linked file of yours (pnpm, Nix, `cp -al`) was refused as
// `file-private` (review rev103a F3). Only files of more than one name count now, the walk is
// streamed and stops by the clock, and known caches are not walked. Since review rev108b F4 (and
// rev109f F7) a file of yours of more than one name is refused outright, except in a read-only store
// (rev109f F6), where its other name is the store's own: there the look at your private places is
// still what decides, so the hard-linked AGENTS.md stands in such a store (a folder of the test's
// own added to READ_ONLY_STORES), linked whole as home-manager links an agent dir.

let added: string | undefined;
afterEach(() => {
  if (added !== undefined) READ_ONLY_STORES.splice(READ_ONLY_STORES.indexOf(added), 1);
  added = undefined;
});

function cache(dir: string, n: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) closeSync(openSync(join(dir, `${i}`.padStart(7, "0")), "w"));
}

describe("hostile-private-cache-scale: 5,000-entry caches in ~/.kube and ~/.aws, your AGENTS.md a hard link in a store", () => {
  it("your hard-linked AGENTS.md is read, in bounded CPU", async () => {
    const { root, home } = homeWithKey();
    cache(join(home, ".kube/cache/http"), 5000);
    cache(join(home, ".aws/cli/cache"), 5000);
    const store = join(root, "nix/store");
    added = store;
    READ_ONLY_STORES.push(store);
    put(join(store, "0abc-agent/AGENTS.md"), "USER-AGENTS-MARKER\n");
    mkdirSync(join(store, ".links"), { recursive: true });
    linkSync(join(store, "0abc-agent/AGENTS.md"), join(store, ".links/0aaa"));
    const agentDir = join(home, ".pi/agent");
    mkdirSync(join(home, ".pi"), { recursive: true });
    symlinkSync(join(store, "0abc-agent"), agentDir);
    const { cpuMs, value } = await cpuTimed(() => renderIn(root, agentDir));
    expect(value.diagnostics.filter((d) => d.code === "file-private")).toEqual([]);
    expect(value.text).toContain("USER-AGENTS-MARKER");
    expect(cpuMs).toBeLessThan(3000);
  });
});
