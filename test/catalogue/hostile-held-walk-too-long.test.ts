import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { heldLinks, stopRefusal } from "../../src/repo-files/held-links.js";
import { tempDir } from "../api/_helpers.js";

// Review rev48a L2 (low): a path whose real folders run past PATH_MAX (4096
// bytes on Linux) was judged "missing" by the held-links walk (its lstat's
// ENAMETOOLONG taken as no entry), so a diagnostic built on the walk said the
// file is not there. The door's real-path check still refused the read; the
// walk now stops with a reason of its own, "too-long", and says so.

describe("hostile-held-walk-too-long: a path past PATH_MAX is too long, not missing", () => {
  it("a file below 20 folders of 250-byte names: the walk stops with too-long", async () => {
    const root = tempDir();
    const names = Array.from(
      { length: 20 },
      (_, i) => `${String(i).padStart(3, "0")}${"d".repeat(247)}`,
    );
    const deep = join(root, ...names);
    // Node's mkdir takes the whole path at once (ENAMETOOLONG); coreutils' `mkdir -p` goes a folder at a time.
    execFileSync("mkdir", ["-p", deep]);
    try {
      const path = join(deep, "x.md");
      const walked = await heldLinks([])(path);
      expect(walked).toEqual({ kind: "stopped", path, why: "too-long" });
      if (walked.kind !== "stopped") return;
      expect(stopRefusal(walked)).toEqual({
        reason: "outside",
        code: "file-outside-project",
        message:
          "its path, as written or as its links lead, is longer than the system can look up (ENAMETOOLONG); name a file whose real path is shorter",
      });
    } finally {
      // Node's rm cannot reach below PATH_MAX either; coreutils' can.
      execFileSync("rm", ["-rf", join(root, names[0] ?? "")]);
    }
  });

  it("a path under PATH_MAX that is missing is still an end, not a stop", async () => {
    const root = tempDir();
    const path = join(root, "no", "such", "x.md");
    expect(await heldLinks([])(path)).toEqual({
      kind: "end",
      real: path,
      spelled: path,
      linksIn: [],
    });
  });
});
