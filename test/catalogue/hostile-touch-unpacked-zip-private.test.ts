import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { tempDir } from "../api/_helpers.js";

// A session whose root is no repository (an unpacked ZIP or tarball, `~/work`,
// a container at `/`) made each folder below it its own project, and judged
// the hidden-name test, your global git excludes and a settings name's hidden
// folder from that folder itself, so the folder's own name was never tested:
// `private/AGENTS.md` (your excludes name `private/`) importing `@notes.txt`,
// `.hid/AGENTS.md`, and `.streamlit/secrets.toml` named by the zip's
// `.gemini/settings.json` were given, trusted (the hooks) or not, and with a
// home folder inside such a root a settings-named `~/.ssh/id_rsa` too; the
// same folders after `git init` were refused (review rev102c F1, F2, F3). The
// folder stays its own project for its reach and imports only.

// The door finds your list by the process's XDG_CONFIG_HOME: the fake home's, here.
beforeEach(() => {
  vi.stubEnv("XDG_CONFIG_HOME", "");
});
afterEach(() => {
  vi.unstubAllEnvs();
});

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

/** A `.git` folder git takes for one. */
function gitFolder(dir: string): void {
  mkdirSync(join(dir, "info"), { recursive: true });
  mkdirSync(join(dir, "objects"));
  mkdirSync(join(dir, "refs"));
  writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
}

/** `<base>/zip`, unpacked (no `.git` unless `git`), and your home with global excludes naming `private/`. */
function unpacked(git: boolean): { zip: string; home: string } {
  const base = tempDir();
  const home = join(base, "home");
  write(join(home, ".config", "git", "ignore"), "private/\n");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  const zip = join(base, "zip");
  write(join(zip, "AGENTS.md"), "Top.\n");
  write(join(zip, "private", "AGENTS.md"), "@notes.txt\n");
  write(join(zip, "private", "notes.txt"), "SECRET-PRIVATE-NOTES\n");
  write(join(zip, "private", "x"), "x\n");
  write(join(zip, ".hid", "AGENTS.md"), "HIDDEN-AGENTS\n");
  write(join(zip, ".hid", "x"), "x\n");
  write(
    join(zip, ".gemini", "settings.json"),
    '{"context":{"fileName":["AGENTS.md","secrets.toml"]}}',
  );
  write(join(zip, ".streamlit", "config.toml"), "x = 1\n");
  write(join(zip, ".streamlit", "secrets.toml"), 'OPENAI_API_KEY = "SECRET-STREAMLIT"\n');
  write(join(zip, "src", "AGENTS.md"), "Src text.\n");
  write(join(zip, "src", "f.ts"), "x\n");
  if (git) gitFolder(join(zip, ".git"));
  return { zip, home };
}

const SECRETS = /SECRET-[A-Z-]+|HIDDEN-AGENTS/g;

describe("hostile archive: a session root that is no repository judges hidden names and your excludes from its top", () => {
  for (const git of [false, true]) {
    for (const trusted of [false, true]) {
      it(`${git ? "with .git" : "unpacked, no .git"}, ${trusted ? "trusted" : "untrusted"}`, async () => {
        const { zip, home } = unpacked(git);
        const touched = ["private/x", ".streamlit/config.toml", "src/f.ts"];
        if (!trusted) touched.push(".hid/x");
        const r = await loadContextForPaths(
          touched.map((p) => join(zip, p)),
          { cwd: zip, home, projectTrusted: trusted },
        );
        const given = r.files.map((f) => f.content).join("\n");
        expect(given.match(SECRETS) ?? []).toEqual([]);
        // The folder's own files still come.
        expect(given).toContain("Src text.");
      });
    }
  }
});

describe("hostile image: a settings-named file in a home folder inside a session root that is no repository", () => {
  for (const git of [false, true]) {
    for (const trusted of [true, false]) {
      it(`${git ? "with .git" : "no .git"}, ${trusted ? "trusted" : "untrusted"}: no ~/.ssh/id_rsa, no ~/docs/notes.txt`, async () => {
        const root = join(tempDir(), "root");
        const home = join(root, "home");
        mkdirSync(join(home, ".pi", "agent"), { recursive: true });
        write(
          join(root, ".gemini", "settings.json"),
          '{"context":{"fileName":["notes.txt","id_rsa","AGENTS.md"]}}',
        );
        write(join(home, ".ssh", "id_rsa"), "SECRET-KEY\n");
        write(join(home, ".ssh", "x"), "x\n");
        write(join(home, "docs", "notes.txt"), "SECRET-NOTES\n");
        write(join(home, "docs", "x"), "x\n");
        write(join(root, "srv", "notes.txt"), "Server notes.\n");
        write(join(root, "srv", "x"), "x\n");
        if (git) gitFolder(join(root, ".git"));
        const r = await loadContextForPaths(
          ["home/.ssh/x", "home/docs/x", "srv/x"].map((p) => join(root, p)),
          { cwd: root, home, projectTrusted: trusted },
        );
        const given = r.files.map((f) => f.content).join("\n");
        expect(given.match(SECRETS) ?? []).toEqual([]);
        expect(given).toContain("Server notes.");
      });
    }
  }
});
