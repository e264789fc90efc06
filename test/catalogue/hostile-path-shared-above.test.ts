import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookNode } from "../../src/cli/commands/export.js";
import { run } from "../../src/cli/main.js";
import { childPathEntries, findSystemBinary } from "../../src/gather/environment/system-binary.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { IS_ROOT, NOBODY } from "./_nobody.js";

// A PATH entry of root's (`tools/bin`, 0755) below a folder another user may
// write: a 0777 share, or a setgid team share `root:team 2775` (review rev71d
// F1, F2, F4). The PATH search judged the binary, the entry and the binary's
// real folder only, so that user could rename `tools` and put his own in its
// place between the check and the run: his git ran as you (4 of 20 renders in
// the review's race); `export --hooks` named such an entry's `node` in the
// hook pasted into your agent's settings; and the PATH handed to xdg-open kept
// an entry anyone could write, from which it ran another user's `gio`. Every
// folder from `/` down, by the entry as written and by each link on its way,
// is now judged by the one rule (`sharedOnTheWay`). The cases need root to
// play the other user (uid 65534, `nobody`) and are skipped without it.

/** An executable script at `path` that runs `first`, then notes in `marker` that it ran. */
function script(path: string, marker: string, first = ""): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${first}echo ran >> ${marker}\n`);
  chmodSync(path, 0o755);
}

/**
 * A share in a new temp folder, by `kind`: `0777` (nobody's, anyone may
 * write), `team` (root's, setgid 2775, of nobody's group, which holds another
 * user), with root's `tools/bin/git` (0755) in it; and `evil/bin/git`, the
 * other user's, beside it.
 */
function shareWith(kind: "0777" | "team") {
  const root = tempDir();
  chmodSync(root, 0o755);
  const share = join(root, "share");
  mkdirSync(join(share, "tools", "bin"), { recursive: true });
  if (kind === "0777") {
    chownSync(share, NOBODY, NOBODY);
    chmodSync(share, 0o777);
  } else {
    chownSync(share, 0, NOBODY);
    chmodSync(share, 0o2775);
  }
  const marker = join(root, "ran");
  script(join(share, "tools", "bin", "git"), marker);
  return { root, share, bin: join(share, "tools", "bin"), marker };
}

/** Runs `sh -c command` as uid 65534 in its own group: the other user. */
function asOtherUser(command: string): void {
  const done = spawnSync(
    "setpriv",
    [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "sh", "-c", command],
    { encoding: "utf8" },
  );
  expect(done.stderr).toBe("");
  expect(done.status).toBe(0);
}

describe.runIf(IS_ROOT && process.platform === "linux")(
  "hostile PATH: an entry below a folder other users may write (review rev71d F1, F2, F4)",
  () => {
    for (const kind of ["0777", "team"] as const) {
      it(`F1 ${kind} share above root's tools/bin: its git is not taken, since the other user can swap it in`, async () => {
        const { root, share, bin } = shareWith(kind);
        const home = join(root, "home");
        const found = await findSystemBinary("git", { PATH: `${bin}:/usr/bin:/bin` }, { home });
        expect(found?.startsWith(share)).not.toBe(true);
        // What the check was about: the other user renames `tools` and puts his own in its place,
        // so the path the search would give names his git at the run.
        asOtherUser(
          `cd ${share} && mkdir -p evil/bin && cp tools/bin/git evil/bin/git && mv tools t.x && mv evil tools`,
        );
        expect(existsSync(join(share, "t.x", "bin", "git"))).toBe(true);
      });
    }

    it("F1 the entry as written goes through a link in a shared folder: not taken", async () => {
      const root = tempDir();
      const safe = join(root, "safe", "bin");
      script(join(safe, "git"), join(root, "ran"));
      const share = join(root, "share");
      mkdirSync(share);
      chmodSync(share, 0o777);
      symlinkSync(safe, join(share, "tbin"));
      const home = join(root, "home");
      const PATH = `${join(share, "tbin")}:/usr/bin:/bin`;
      expect((await findSystemBinary("git", { PATH }, { home }))?.startsWith(share)).not.toBe(true);
      // The same tree with the link in a folder of root's alone: taken (the control).
      chmodSync(share, 0o755);
      expect(await findSystemBinary("git", { PATH }, { home })).toBe(join(share, "tbin", "git"));
    });

    it("F1 the binary a link into a shared folder's tools/bin: not taken", async () => {
      const { root, bin } = shareWith("0777");
      const entry = join(root, "mine", "bin");
      mkdirSync(entry, { recursive: true });
      symlinkSync(join(bin, "git"), join(entry, "git"));
      const home = join(root, "home");
      const found = await findSystemBinary("git", { PATH: `${entry}:/usr/bin:/bin` }, { home });
      expect(found).not.toBe(join(entry, "git"));
    });

    it("F1 control: the same tree in a folder of root's, or below root's sticky folder, is taken", async () => {
      const { root, share, bin } = shareWith("0777");
      const home = join(root, "home");
      chownSync(share, 0, 0);
      chmodSync(share, 0o755);
      expect(await findSystemBinary("git", { PATH: bin }, { home })).toBe(join(bin, "git"));
      // /tmp's way: anyone may add a name, no one may rename root's `tools`.
      chmodSync(share, 0o1777);
      expect(await findSystemBinary("git", { PATH: bin }, { home })).toBe(join(bin, "git"));
      // But another user's folder in it is his to swap.
      chownSync(join(share, "tools"), NOBODY, NOBODY);
      expect(await findSystemBinary("git", { PATH: bin }, { home })).toBeUndefined();
    });

    it("F1 render --git does not run the git of a PATH entry below a team share", async () => {
      const { root, bin, marker } = shareWith("team");
      const project = join(root, "project");
      mkdirSync(project);
      spawnSync("git", ["init", "-q"], { cwd: project });
      const git = spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim();
      writeFileSync(join(bin, "git"), `#!/bin/sh\necho ran >> ${marker}\nexec ${git} "$@"\n`);
      const PATH = `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`;
      const code = await run(["render", "--git", "--now", NOW], {
        stdout: () => {},
        stderr: () => {},
        cwd: project,
        env: { PATH },
        home: join(root, "home"),
        machine: { platform: "linux", arch: "x64" },
      });
      expect(code).toBe(0);
      expect(existsSync(marker)).toBe(false);
    });

    it("F2 export --hooks does not name a node on an entry below a team share", async () => {
      const { root, bin } = shareWith("team");
      symlinkSync(process.execPath, join(bin, "node"));
      const cwd = join(root, "project");
      mkdirSync(cwd);
      const io = { cwd, home: join(root, "home"), env: { PATH: `${bin}:/usr/bin:/bin` } };
      expect(await hookNode(io, process.execPath)).not.toBe(join(bin, "node"));
      // An entry of its own that is team-writable, or the other user's: the same.
      for (const [uid, gid, mode] of [
        [0, NOBODY, 0o2775],
        [NOBODY, NOBODY, 0o755],
        [0, 0, 0o777],
      ] as const) {
        chownSync(join(root, "share"), 0, 0);
        chmodSync(join(root, "share"), 0o755);
        chownSync(bin, uid, gid);
        chmodSync(bin, mode);
        expect(await hookNode(io, process.execPath)).not.toBe(join(bin, "node"));
      }
    });

    it("F4 the PATH handed to a child keeps no entry below a shared folder", async () => {
      const { root, share, bin } = shareWith("0777");
      const mine = join(root, "mine");
      mkdirSync(mine);
      const home = join(root, "home");
      const env = { PATH: `${bin}:${share}:${mine}:/usr/bin` };
      expect(await childPathEntries(env, { home })).toEqual([mine, "/usr/bin"]);
    });

    it("F4 serve --open: xdg-open runs no other user's gio from an entry anyone may write", async () => {
      const root = tempDir();
      const ww = join(root, "wwbin");
      const theirs = join(root, "theirs-ran");
      const opened = join(root, "opened");
      mkdirSync(ww);
      script(join(ww, "gio"), theirs);
      chownSync(join(ww, "gio"), NOBODY, NOBODY);
      chownSync(ww, NOBODY, NOBODY);
      chmodSync(ww, 0o777);
      // The system's opener, a shell script that looks its helper up on PATH, as xdg-open does,
      // then notes that it ran.
      script(join(root, "sys", "xdg-open"), opened, `gio open "$@" 2>/dev/null\n`);
      const project = join(root, "project");
      mkdirSync(join(root, "agent"), { recursive: true });
      mkdirSync(project);
      const PATH = [ww, join(root, "sys")].join(":");
      const saved = process.env.PATH;
      process.env.PATH = PATH;
      const controller = new AbortController();
      const finished = run(["serve", "--open", "--agent-dir", join(root, "agent"), "--now", NOW], {
        stdout: () => {},
        stderr: () => {},
        cwd: project,
        env: { PATH },
        home: join(root, "home"),
        machine: { platform: "linux", arch: "x64" },
        signal: controller.signal,
      });
      const start = Date.now();
      while (!existsSync(opened) && Date.now() - start < 10_000)
        await new Promise((r) => setTimeout(r, 50));
      process.env.PATH = saved;
      controller.abort();
      expect(await finished).toBe(0);
      expect(readFileSync(opened, "utf8")).toBe("ran\n");
      expect(existsSync(theirs)).toBe(false);
    }, 20_000);
  },
);
