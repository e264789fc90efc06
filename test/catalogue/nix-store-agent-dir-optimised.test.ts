import { linkSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { READ_ONLY_STORES } from "../../src/repo-files/own-private.js";
import { tempDir } from "../api/_helpers.js";
import { put, renderIn } from "./_private-kit.js";

// home-manager's `home.file.".pi/agent".source = ./agent;` makes `~/.pi/agent` a link to
// `/nix/store/…-agent`, and `auto-optimise-store` gives every store file a second name under
// `/nix/store/.links` (Guix deduplicates its store the same way): the hard-link rule for your agent
// dir's files (review rev108b F4) refused every one of them, with advice a read-only store cannot
// take (review rev109f F6, a regression). A file of yours whose real path lies in a read-only
// store is read whatever its number of names. The store is at the root, so a folder of the test's
// own stands for it in READ_ONLY_STORES.

let added: string | undefined;
afterEach(() => {
  if (added !== undefined) READ_ONLY_STORES.splice(READ_ONLY_STORES.indexOf(added), 1);
  added = undefined;
});

describe("nix-store-agent-dir-optimised: your agent dir linked whole into an optimised store", () => {
  it("reads its files, each of two names, as yours", async () => {
    const root = tempDir();
    const store = join(root, "nix/store");
    added = store;
    READ_ONLY_STORES.push(store);
    const home = join(root, "home");
    const built = join(store, "0abc-agent");
    put(join(built, "AGENTS.md"), "MY-NIX-AGENTS-109\n");
    put(join(built, "APPEND_SYSTEM.md"), "MY-NIX-APPEND-109\n");
    mkdirSync(join(store, ".links"), { recursive: true });
    linkSync(join(built, "AGENTS.md"), join(store, ".links/0aaa"));
    linkSync(join(built, "APPEND_SYSTEM.md"), join(store, ".links/0bbb"));
    mkdirSync(join(home, ".pi"), { recursive: true });
    symlinkSync(built, join(home, ".pi/agent"));
    put(join(root, "project/.git/HEAD"), "ref: refs/heads/main\n");
    const agentDir = join(home, ".pi/agent");
    const result = await renderIn(root, agentDir, { home, projectTrusted: false });
    expect(result.text).toContain("MY-NIX-AGENTS-109");
    expect(result.text).toContain("MY-NIX-APPEND-109");
    expect(result.diagnostics.map((d) => d.message).join("\n")).not.toContain("hard links");
  });
});
