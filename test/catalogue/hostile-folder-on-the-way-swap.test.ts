import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { compare } from "../../src/author/snapshot/_golden.js";
import { readScenario } from "../../src/author/snapshot/_scenario.js";
import { runSnapshots } from "../../src/author/snapshot/snapshot.js";
import { walkTree } from "../../src/gather/tree/_tree-walk.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { swaps } from "./_folder-swap.js";

// Review rev92a F1-F4: O_NOFOLLOW (and an lstat/inode compare) guards only the last name of a
// path, so a folder ON THE WAY swapped for a link between its listing and the open of an entry
// below it (another local user's `renameat2` loop) took the open into your home: a rules walk
// printed your `~/.ssh` file names in warnings (F1), the workspace tree listed your
// `~/Documents` in the prompt (F2), `snapshot` copied your `~/.ssh/id_rsa` as a fixture and
// wrote it in a golden (F3), and read your `~/.pi/agent/AGENTS.md` as a golden (F4). Every
// entry opened by its path below a checked folder must now lie where the kernel says the held
// folder is, joined with its name (`openedElsewhere`, src/repo-files/list-folder.ts). The swap
// is made deterministically, as in hostile-rules-skills-folder-swap: when the listing of the
// parent opens it (the parent is then held and listed as it was), not by a racing loop.

vi.mock("../../src/_io.js", async (importOriginal) =>
  (await import("./_folder-swap.js")).swappingIo(await importOriginal()),
);

/** A fake home with a `.ssh`, a `Documents` and a `.pi/agent/AGENTS.md`, each holding a marker. */
function home(root: string) {
  const dir = join(root, "home");
  mkdirSync(join(dir, ".ssh"), { recursive: true });
  writeFileSync(join(dir, ".ssh", "id_rsa"), "SECRET-SSH-MARKER\n");
  writeFileSync(join(dir, ".ssh", "id_ed25519_PRIVATE_NAME"), "SECRET-SSH-MARKER\n");
  mkdirSync(join(dir, "Documents"), { recursive: true });
  writeFileSync(join(dir, "Documents", "PRIVATE-PLAN-MARKER.txt"), "xx");
  mkdirSync(join(dir, ".pi", "agent"), { recursive: true });
  writeFileSync(join(dir, ".pi", "agent", "AGENTS.md"), "MY-OWN-RULE (USER-AGENTS-MARKER)\n");
  return dir;
}

function nothingOfYours(said: string) {
  for (const mark of ["SECRET-SSH", "PRIVATE_NAME", "PRIVATE-PLAN", "USER-AGENTS-MARKER"]) {
    expect(said).not.toContain(mark);
  }
}

describe("hostile-folder-on-the-way-swap: an entry opened through a parent swapped for a link is refused", () => {
  it.each([true, false])(
    "F1: a rules walk's subfolder below a swapped rules folder (trusted %s) names no file of yours",
    async (trusted) => {
      const root = tempDir();
      const you = home(root);
      const project = join(root, "project");
      execFileSync("git", ["init", "-q", project]);
      const rules = join(project, ".roo", "rules");
      mkdirSync(join(rules, ".ssh"), { recursive: true });
      writeFileSync(join(rules, "r.md"), "Project rule.\n");
      writeFileSync(join(rules, ".ssh", "x.md"), "Project rule x.\n");
      swaps.set(rules, you);
      const result = await renderSystemPrompt(pinned(root, { projectTrusted: trusted, home: you }));
      expect(swaps.has(rules)).toBe(false);
      nothingOfYours(JSON.stringify(result.diagnostics));
      nothingOfYours(result.text);
      expect(JSON.stringify(result.diagnostics)).not.toContain("id_rsa");
    },
  );

  it.each([true, false])(
    "F2: the workspace tree lists no folder of yours below a swapped folder (trusted %s)",
    async (trusted) => {
      const root = tempDir();
      const you = home(root);
      const project = join(root, "project");
      execFileSync("git", ["init", "-q", project]);
      mkdirSync(join(project, "x", "Documents"), { recursive: true });
      writeFileSync(join(project, "x", "Documents", "public.txt"), "ok");
      const x = join(project, "x");
      // Swapped at x's listing: x/Documents is then reached through the link. (The layout
      // stats each entry listed by its path again, so the prompt shows it only when the
      // swap is there again at that moment, as the review's loop made it: the listing is asked.)
      swaps.set(x, you);
      const listing = await walkTree(project, {
        listDepth: 4,
        agentsDepth: 4,
        home: you,
        trusted,
        env: {},
      });
      expect(swaps.has(x)).toBe(false);
      nothingOfYours(JSON.stringify(await listing.children("x/Documents")));
      nothingOfYours(JSON.stringify(await listing.children("x")));
    },
  );

  it("F3: snapshot copies no fixture through a swapped folder, nor writes it in a golden", async () => {
    const root = tempDir();
    const you = home(root);
    const project = join(root, "project");
    const snapshots = join(project, "snapshots");
    const fx = join(snapshots, "fx");
    mkdirSync(join(fx, "x"), { recursive: true });
    writeFileSync(join(snapshots, "t.scenario.yaml"), "cwd: fx\n");
    writeFileSync(join(fx, "AGENTS.md"), "Project rules.\n@x/id_rsa\n");
    writeFileSync(join(fx, "x", "id_rsa"), "dummy\n");
    // Swapped once the copy lists fx/x: its file is then opened through the link.
    swaps.set(join(fx, "x"), join(you, ".ssh"));
    const report = await runSnapshots(snapshots, {
      update: true,
      sandboxDir: join(root, "sandboxes"),
      within: project,
    });
    expect(swaps.has(join(fx, "x"))).toBe(false);
    const golden = join(snapshots, "t.md");
    nothingOfYours(existsSync(golden) ? readFileSync(golden, "utf8") : "");
    nothingOfYours(JSON.stringify(report));
    expect(JSON.stringify(report.scenarios)).toContain("gone while it was copied");
  });

  it("F3: snapshot copies nothing when the scenario folder itself is swapped at its listing", async () => {
    const root = tempDir();
    const you = home(root);
    const project = join(root, "project");
    const snapshots = join(project, "snapshots");
    mkdirSync(snapshots, { recursive: true });
    writeFileSync(join(snapshots, "AGENTS.scenario.yaml"), "{}\n");
    writeFileSync(join(snapshots, "AGENTS.md"), "Project rule.\n");
    writeFileSync(join(you, ".pi", "agent", "AGENTS.scenario.yaml"), "{}\n");
    swaps.set(snapshots, join(you, ".pi", "agent"));
    const report = await runSnapshots(snapshots, {
      sandboxDir: join(root, "sandboxes"),
      within: project,
    });
    expect(swaps.has(snapshots)).toBe(false);
    nothingOfYours(JSON.stringify(report));
    expect(JSON.stringify(report.scenarios)).toContain(
      "the folder was replaced since it was checked",
    );
  });

  it("F4: a golden and a scenario file are not read through a scenario folder swapped since it was judged", async () => {
    const root = tempDir();
    const you = home(root);
    const project = join(root, "project");
    const snapshots = join(project, "snapshots");
    mkdirSync(snapshots, { recursive: true });
    writeFileSync(join(snapshots, "AGENTS.scenario.yaml"), "{}\n");
    writeFileSync(join(snapshots, "AGENTS.md"), "Project rule.\n");
    const agent = join(you, ".pi", "agent");
    writeFileSync(join(agent, "AGENTS.scenario.yaml"), "env: {USER_AGENTS_MARKER: x}\n");
    // Judged (its real path) before the swap, read after it.
    renameSync(snapshots, `${snapshots}.real`);
    symlinkSync(agent, snapshots);
    const golden = await compare(join(snapshots, "AGENTS.md"), "prompt", "rendered\n").catch(
      (error: Error) => ({ refused: error.message }),
    );
    nothingOfYours(JSON.stringify(golden));
    expect(JSON.stringify(golden)).toContain("gone while being read");
    const scenario = await readScenario(join(snapshots, "AGENTS.scenario.yaml"), true).catch(
      (error: Error) => ({ refused: error.message }),
    );
    expect(JSON.stringify(scenario)).not.toContain("USER_AGENTS_MARKER");
    expect(JSON.stringify(scenario)).toContain("gone while being read");
  });
});
