import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  NO_DEADLINE,
  projectReach,
  readRepoCapped,
  readRepoText,
  readRepoTextSync,
} from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

const SECRET = "MARKER-SECRET-KEY";

/** A root holding `home` (with ~/.ssh/id_rsa) and `repo` (a git root). */
function world() {
  const root = realpathSync(tempDir());
  const home = join(root, "home");
  const repo = join(root, "repo");
  put(join(home, ".ssh/id_rsa"), `${SECRET}\n`);
  mkdirSync(join(repo, ".git"), { recursive: true });
  return { root, home, repo };
}

function put(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code);

describe("the door for repository files", () => {
  it("reads a file of the project, and one linked from inside it, with its real path", async () => {
    const { home, repo } = world();
    put(join(repo, "docs/rules.md"), "Rules.\n");
    symlinkSync("docs/rules.md", join(repo, ".cursorrules"));
    const reach = await projectReach({ signal: NO_DEADLINE, start: repo, home, trusted: true });
    const read = await readRepoText(join(repo, ".cursorrules"), { reach });
    expect(read).toEqual({
      ok: true,
      text: "Rules.\n",
      diagnostics: [],
      real: join(repo, "docs/rules.md"),
    });
  });

  it("refuses a link out of the project, trusted or not, with a diagnostic at the link", async () => {
    const { home, repo } = world();
    symlinkSync(join(home, ".ssh/id_rsa"), join(repo, "GEMINI.md"));
    const reach = await projectReach({ signal: NO_DEADLINE, start: repo, home, trusted: true });
    const read = await readRepoText(join(repo, "GEMINI.md"), { reach });
    expect(read).toEqual({
      ok: false,
      reason: "refused",
      refusal: {
        reason: "outside",
        code: "file-outside-project",
        message: `it resolves to ${home}/.ssh/id_rsa, outside the project root ${repo}`,
      },
      diagnostics: [
        {
          level: "warning",
          code: "file-outside-project",
          message: `not read: it resolves to ${home}/.ssh/id_rsa, outside the project root ${repo}`,
          path: join(repo, "GEMINI.md"),
        },
      ],
    });
    expect(readRepoTextSync(join(repo, "GEMINI.md"), { reach })).toEqual(read);
  });

  it("refuses an untrusted project's private files through a link or a written path", async () => {
    const { home, repo } = world();
    put(join(repo, ".env"), `TOKEN=${SECRET}\n`);
    put(join(repo, ".git/config"), `url = https://${SECRET}@example.com/x\n`);
    put(join(repo, ".gitignore"), "local/\n");
    put(join(repo, "local/notes.md"), `${SECRET}\n`);
    symlinkSync(".env", join(repo, "GEMINI.md"));
    symlinkSync(".git/config", join(repo, ".cursorrules"));
    symlinkSync("local/notes.md", join(repo, "docs"));
    const untrusted = await projectReach({
      signal: NO_DEADLINE,
      start: repo,
      home,
      trusted: false,
    });
    const trusted = await projectReach({ signal: NO_DEADLINE, start: repo, home, trusted: true });
    const read = (path: string, reach = untrusted, named = false) =>
      readRepoCapped(join(repo, path), { reach, named, maxBytes: 1000 });
    expect((await read("GEMINI.md")).diagnostics[0]?.message).toBe(
      "not read: the project is not trusted and it resolves to .env, which is hidden (a name that starts with a dot); trust the project to read it",
    );
    expect(codes(await read(".cursorrules"))).toEqual(["file-private"]);
    expect(codes(await read("docs"))).toEqual(["file-private"]);
    expect(codes(await read(".env", untrusted, true))).toEqual(["file-private"]);
    // Found at its own name (not through a link): the reader looked there on purpose.
    expect((await read(".gitignore")).ok).toBe(true);
    // Trusted: the project's own files are the project's to give.
    expect((await read("GEMINI.md", trusted)).ok).toBe(true);
  });

  it("narrows a root that holds the home folder to the folder the reading starts from", async () => {
    const { root, home } = world();
    // The home folder is a git work tree; the hostile folder is in ~/Downloads.
    mkdirSync(join(home, ".git"));
    const hostile = join(home, "Downloads/hostile");
    put(join(hostile, "README.md"), "Hi.\n");
    symlinkSync(join(home, ".ssh/id_rsa"), join(hostile, "CLAUDE.md"));
    const reach = await projectReach({ signal: NO_DEADLINE, start: hostile, home, trusted: true });
    expect(reach.root).toBe(hostile);
    expect(codes(await readRepoText(join(hostile, "CLAUDE.md"), { reach }))).toEqual([
      "file-outside-project",
    ]);
    // A root above the home folder (`/`, or a git root holding it) reaches nothing of it.
    mkdirSync(join(root, ".git"));
    const above = await projectReach({ signal: NO_DEADLINE, start: root, home, trusted: true });
    expect(above.excluded).toEqual([home]);
    const named = await readRepoText(join(home, "Downloads/hostile/README.md"), {
      reach: above,
      named: true,
    });
    expect(named.diagnostics[0]?.message).toBe(
      `not read: it resolves to ${home}/Downloads/hostile/README.md, inside the home folder ${home}, which a project above it never reaches`,
    );
  });

  it("in a home folder that is the project root (dotfiles), reaches no hidden entry through a link or a written path", async () => {
    const { home } = world();
    mkdirSync(join(home, ".git"));
    put(join(home, ".cursorrules"), "Dotfiles rule.\n");
    put(join(home, "notes.md"), "Notes.\n");
    symlinkSync(".ssh/id_rsa", join(home, "AGENTS.md"));
    const reach = await projectReach({ signal: NO_DEADLINE, start: home, home, trusted: true });
    expect(reach.home).toBe(home);
    expect((await readRepoText(join(home, ".cursorrules"), { reach })).ok).toBe(true);
    expect((await readRepoText(join(home, "notes.md"), { reach, named: true })).ok).toBe(true);
    expect(codes(await readRepoText(join(home, "AGENTS.md"), { reach }))).toEqual([
      "file-outside-project",
    ]);
    expect(codes(await readRepoText(join(home, ".ssh/id_rsa"), { reach, named: true }))).toEqual([
      "file-outside-project",
    ]);
  });

  it("never opens a FIFO, and caps by refusing (whole) or cutting (capped)", async () => {
    const { home, repo } = world();
    execFileSync("mkfifo", [join(repo, "AGENTS.md")]);
    put(join(repo, "big.md"), "x".repeat(100));
    const reach = await projectReach({ signal: NO_DEADLINE, start: repo, home, trusted: false });
    expect(codes(await readRepoText(join(repo, "AGENTS.md"), { reach }))).toEqual([
      "file-not-regular",
    ]);
    expect(codes(await readRepoText(join(repo, "big.md"), { reach, maxBytes: 10 }))).toEqual([
      "file-too-large",
    ]);
    const cut = await readRepoCapped(join(repo, "big.md"), { reach, maxBytes: 10 });
    expect(cut.ok && [cut.text, cut.omitted]).toEqual(["x".repeat(10), 90]);
  });

  it.runIf(process.getuid?.() === 0)(
    "refuses another user's file in a world-writable sticky folder",
    async () => {
      const { home, root } = world();
      const shared = join(root, "shared");
      mkdirSync(shared);
      chmodSync(shared, 0o1777);
      put(join(shared, "AGENTS.md"), "Planted.\n");
      chownSync(join(shared, "AGENTS.md"), 65534, 65534);
      const reach = await projectReach({ signal: NO_DEADLINE, start: shared, home, trusted: true });
      const read = await readRepoText(join(shared, "AGENTS.md"), { reach });
      expect(read.diagnostics[0]?.message).toBe(
        `not read: it belongs to another user (uid 65534) and lies in ${shared}, a folder anyone may write to (world-writable), so it is not the repository's`,
      );
    },
  );
});
