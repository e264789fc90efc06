import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadConfigFiles } from "../../src/config/index.js";
import { tempDir } from "../api/_helpers.js";
import { giveAway, IS_ROOT, sharedFolder } from "./_nobody.js";

// Another user swaps your clone for their look-alike in a 0777 share between
// the planted check of your `.pi/sysprompt.yaml` and its open (review rev67a
// F2): the check passed on your folder and the read took theirs, so their
// `model`, `vars` and `tools` were your project's defaults (7-8 renders in 30
// under a rename loop). The file system is wrapped so the swap falls exactly
// in that gap. The tests run as root: `nobody` (uid 65534) owns the look-alike.

/** Armed: the first open of this path swaps the folders first. */
const armed = vi.hoisted(() => ({ path: "", swap: () => {} }));

vi.mock("../../src/_io.js", async (importOriginal) => {
  const io = await importOriginal<typeof import("../../src/_io.js")>();
  const open = (path: string, flags: number) => {
    if (armed.path !== "" && path === armed.path) {
      armed.path = "";
      armed.swap();
    }
    return io.open(path, flags);
  };
  return { ...io, open };
});

function share() {
  const root = tempDir();
  const shared = sharedFolder(root, "share", 0o777);
  const proj = join(shared, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  mkdirSync(join(proj, ".pi"));
  writeFileSync(join(proj, ".pi/sysprompt.yaml"), "model: my-model\n");
  const evil = join(shared, "evil");
  mkdirSync(join(evil, ".pi"), { recursive: true });
  writeFileSync(join(evil, ".pi/sysprompt.yaml"), "model: EVIL-BOB-MODEL\n");
  if (IS_ROOT) giveAway(evil);
  const agentDir = join(root, "home/.pi/agent");
  mkdirSync(agentDir, { recursive: true });
  return { shared, proj, evil, agentDir };
}

describe("catalogue: another user's sysprompt.yaml swapped in for the open is not yours", () => {
  it.runIf(IS_ROOT)(
    "config-planted-swap-at-open: share/proj replaced by another user's folder between the check and the open is refused (needs root)",
    async () => {
      const s = share();
      const path = join(s.proj, ".pi/sysprompt.yaml");
      armed.path = path;
      armed.swap = () => {
        renameSync(s.proj, join(s.shared, "mine.tmp"));
        renameSync(s.evil, s.proj);
      };
      const { files, diagnostics } = await loadConfigFiles({
        agentDir: s.agentDir,
        home: dirname(dirname(s.agentDir)),
        cwd: s.proj,
        projectDir: join(s.proj, ".pi"),
        projectTrusted: true,
      });
      expect(armed.path).toBe("");
      expect(files.map((f) => [f.layer, f.found, f.values])).toEqual([
        ["user", false, {}],
        ["project", false, {}],
      ]);
      expect(diagnostics).toEqual([
        {
          level: "warning",
          code: "config-refused",
          message:
            "sysprompt.yaml not used: the file was replaced (by a link, or another file) between its check and its opening",
          path,
        },
      ]);
    },
  );

  it("config-planted-swap-none: with no swap your project's file is read", async () => {
    const s = share();
    const { files, diagnostics } = await loadConfigFiles({
      agentDir: s.agentDir,
      home: dirname(dirname(s.agentDir)),
      cwd: s.proj,
      projectDir: join(s.proj, ".pi"),
      projectTrusted: true,
    });
    expect(files[1]?.values).toEqual({ model: "my-model" });
    expect(diagnostics).toEqual([]);
  });
});
