import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { git, SYSTEM } from "../gather/_git.js";

// Before `git status`, the git section reads the repository's filter,
// protocol, extensions and remote entries (`git config --get-regexp`) to
// switch each filter driver off on the command line: status runs a clean
// filter to hash a file whose stat changed. That output is cut at 256 KiB,
// like every probe's. 744 KB of `remote.*.fetch` lines before a
// `[filter "zz"] clean = ./run-me` left the driver unseen, and status ran
// it (with --untrusted too). A cut output is now a refusal.

describe("hostile repository: a config too long to check is refused", { timeout: 30_000 }, () => {
  it("a filter driver after 12,000 remote entries runs nothing", async () => {
    const root = tempDir();
    const cwd = join(root, "project");
    mkdirSync(cwd, { recursive: true });
    git(cwd, "init", "-q", "-b", "main");
    writeFileSync(join(cwd, ".gitattributes"), "* filter=zz\n");
    writeFileSync(join(cwd, "a.txt"), "hello\n");
    git(cwd, "add", ".");
    git(cwd, "commit", "-q", "-m", "one");
    const ran = join(root, "filter-ran");
    const filter = join(cwd, "run-me");
    writeFileSync(filter, `#!/bin/sh\ntouch '${ran}'\ncat\n`);
    chmodSync(filter, 0o755);
    const fetch = Array.from(
      { length: 12_000 },
      (_, i) => `\tfetch = +refs/heads/x${i}:refs/remotes/aaa/x${i}\n`,
    );
    appendFileSync(
      join(cwd, ".git", "config"),
      `[remote "aaa"]\n${fetch.join("")}[filter "zz"]\n\tclean = ${filter}\n`,
    );
    // Same size, newer mtime: status must hash the file, through the filter.
    utimesSync(join(cwd, "a.txt"), new Date(), new Date(Date.now() + 5_000));
    const result = await renderSystemPrompt(
      pinned(root, { cwd, env: SYSTEM, git: true, projectTrusted: false }),
    );
    expect(existsSync(ran)).toBe(false);
    expect(result.sections.map((s) => s.name)).not.toContain("git");
    expect(result.diagnostics.filter((d) => d.code.startsWith("git-")).map((d) => d.code)).toEqual([
      "git-refused",
    ]);
  });
});
