import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cliAt } from "./_cli-at.js";

// Review rev55a F2 (low): with no `--max-tokens`, the prompt's 8 MiB cut the repository's
// appended texts to a marker saying "left out to fit the token budget": a budget no one set. A
// cut made for room only now names its cause ("to fit the prompt's size limit"); a cut made
// under --max-tokens still names the token budget.

async function layout() {
  const home = join(tempDir(), "home");
  const repo = join(home, "work", "app");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, "docs"), { recursive: true });
  writeFileSync(join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
  const args: string[] = [];
  for (let i = 0; i < 10; i++) {
    writeFileSync(
      join(repo, "docs", `p${i}.md`),
      "word word word word word word word word\n".repeat(24_000),
    );
    args.push("--append-system-prompt", `./docs/p${i}.md`);
  }
  args.push("--append-system-prompt", "USER-CLI-APPEND my words");
  return { home, repo, args };
}

describe("hostile repository: a cut for the prompt's 8 MiB names its cause", () => {
  it("the repository's appended texts cut for room say the size limit, not a token budget", async () => {
    const { home, repo, args } = await layout();
    const { out, err } = await cliAt(["render", ...args], repo, home);
    expect(err).toContain("[room-cut]");
    expect(out).toContain(
      "[A text of the repository appended here is left out to fit the prompt's size limit.]",
    );
    expect(out).not.toContain("token budget");
    expect(out).toContain("USER-CLI-APPEND my words\n\n</addendum>");
  });
});
