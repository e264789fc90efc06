import {
  cpSync,
  existsSync,
  readFileSync,
  renameSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type * as Probe from "../../src/gather/environment/probe.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { git, repoAt, SYSTEM } from "../gather/_git.js";

// rev92a F6, F7: `--git` judged the repository and its config in one git
// process and ran `git status` and `git log` as later ones, which found
// `.git` and read `.git/config` again by path. Another process of a user who
// can write the checkout swapped either in between: status ran the
// repository's clean filter, and log printed another repository's commits.
// The race is made deterministic here: the swap is done just before the
// first `git status` is spawned.

/** Run once just before the next `git status` is spawned. */
let beforeStatus: (() => void) | undefined;

vi.mock("../../src/gather/environment/probe.js", async (importOriginal) => {
  const actual = await importOriginal<typeof Probe>();
  const runProbe: typeof actual.runProbe = (command, args, options) => {
    if (args.includes("status") && beforeStatus !== undefined) {
      const swap = beforeStatus;
      beforeStatus = undefined;
      swap();
    }
    return actual.runProbe(command, args, options);
  };
  return { ...actual, runProbe };
});

const gitSection = async (root: string, cwd: string, projectTrusted: boolean) => {
  const result = await renderSystemPrompt(
    pinned(root, { cwd, env: SYSTEM, git: true, projectTrusted }),
  );
  return {
    text: result.sections.find((s) => s.name === "git")?.text ?? "",
    codes: result.diagnostics.filter((d) => d.code.startsWith("git-")).map((d) => d.code),
  };
};

/** A committed project whose `.gitattributes` gives every file the filter `x`, and `a.txt` to hash again. */
function filteredProject(root: string): string {
  const cwd = repoAt(join(root, "project"), "main", "Own subject");
  writeFileSync(join(cwd, ".gitattributes"), "* filter=x\n");
  git(cwd, "add", ".");
  git(cwd, "commit", "-q", "-m", "Own attributes");
  // Another time than the index holds: status hashes the file again, through its filter.
  utimesSync(join(cwd, "a.txt"), new Date("2020-01-01"), new Date("2020-01-01"));
  return cwd;
}

describe("hostile repository: git never reads what is swapped in after the judging", {
  timeout: 30_000,
}, () => {
  for (const trusted of [true, false]) {
    it(`a .git/config swapped for one with a clean filter before git status runs nothing (${trusted ? "trusted" : "--untrusted"})`, async () => {
      const root = tempDir();
      const cwd = filteredProject(root);
      const ran = join(root, "PWNED");
      const config = join(cwd, ".git", "config");
      const evil = `${readFileSync(config, "utf8")}[filter "x"]\n\tclean = "sh -c 'echo ran >> ${ran}; cat'"\n`;
      writeFileSync(`${config}.evil`, evil);
      beforeStatus = () => {
        renameSync(config, `${config}.before`);
        renameSync(`${config}.evil`, config);
      };
      const { text, codes } = await gitSection(root, cwd, trusted);
      expect(beforeStatus).toBeUndefined();
      expect(existsSync(ran)).toBe(false);
      // The section is the project's, as judged.
      expect(codes).toEqual([]);
      expect(text).toContain("Own attributes");
    });
  }

  it("a .git swapped for a git folder of the project whose config has a clean filter, before git status, runs nothing", async () => {
    const root = tempDir();
    const cwd = filteredProject(root);
    const ran = join(root, "PWNED");
    // A copy of the project's own git folder, with the filter: a real folder, not a link.
    cpSync(join(cwd, ".git"), join(cwd, "evil"), { recursive: true });
    const config = join(cwd, "evil", "config");
    writeFileSync(
      config,
      `${readFileSync(config, "utf8")}[filter "x"]\n\tclean = "sh -c 'echo ran >> ${ran}; cat'"\n`,
    );
    beforeStatus = () => {
      renameSync(join(cwd, ".git"), join(cwd, "judged"));
      renameSync(join(cwd, "evil"), join(cwd, ".git"));
    };
    const { text } = await gitSection(root, cwd, false);
    expect(beforeStatus).toBeUndefined();
    expect(existsSync(ran)).toBe(false);
    expect(text).toContain("Own attributes");
  });

  it("a .git swapped for a link to another repository's before git status: none of its commits is printed", async () => {
    const root = tempDir();
    const cwd = repoAt(join(root, "project"), "main", "Own subject");
    const other = repoAt(join(root, "elsewhere"), "main", "SECRET-COMMIT-SUBJECT");
    beforeStatus = () => {
      renameSync(join(cwd, ".git"), join(cwd, "real-git"));
      symlinkSync(join(other, ".git"), join(cwd, ".git"));
    };
    const { text } = await gitSection(root, cwd, true);
    expect(beforeStatus).toBeUndefined();
    expect(text).not.toContain("SECRET-COMMIT-SUBJECT");
    expect(text).toContain("Own subject");
  });
});
