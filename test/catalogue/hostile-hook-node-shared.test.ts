import { chmodSync, chownSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookNode } from "../../src/cli/commands/export.js";
import { RefusedError } from "../../src/cli/io.js";
import { findSystemBinary } from "../../src/gather/environment/system-binary.js";
import { tempDir } from "../api/_helpers.js";
import { IS_ROOT, NOBODY } from "./_nobody.js";

// `export --hooks` names the running node by its own path when no PATH entry
// gives it a name: that path was pasted into the hook with no walk, even in a
// 0777 folder or another user's, who could replace the binary later and run
// as you at every tool call (rev71d F2's reasoning, for the fallback). The
// running node is now named by its own path only when the PATH search's rule
// holds of it; else the first system node that passes is, else the export is
// refused, naming the folder (review rev73a F3).

/** A `team/bin/node` (a stand-in: the hook only names it) in a new temp folder. */
function teamNode() {
  const root = tempDir();
  chmodSync(root, 0o755);
  const bin = join(root, "team", "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "node"), "#!/bin/sh\n", { mode: 0o755 });
  const cwd = join(root, "project");
  mkdirSync(cwd);
  return { root, team: join(root, "team"), node: join(bin, "node"), cwd, home: join(root, "home") };
}

describe.runIf(process.platform === "linux")(
  "hostile hook: the running node in a folder others may write (review rev73a F3)",
  () => {
    it("a running node below a 0777 folder is not named; a system node is, or it is refused", async () => {
      const { team, node, cwd, home } = teamNode();
      chmodSync(team, 0o777);
      const system = await findSystemBinary("node", { PATH: "/usr/bin:/bin" }, { home });
      const named = await hookNode({ cwd, home, env: { PATH: "/usr/bin:/bin" } }, node);
      expect(named).not.toBe(node);
      if (system !== undefined) expect(named).toBe(system);
      const refused = hookNode({ cwd, home, env: { PATH: "" } }, node);
      await expect(refused).rejects.toBeInstanceOf(RefusedError);
      await expect(refused).rejects.toThrow(`${team}: writable by other users`);
    });

    it.runIf(IS_ROOT)(
      "a running node in another user's folder, or his own binary, is not named",
      async () => {
        const { team, node, cwd, home } = teamNode();
        chownSync(team, NOBODY, NOBODY);
        await expect(hookNode({ cwd, home, env: {} }, node)).rejects.toThrow(`uid ${NOBODY}`);
        chownSync(team, 0, 0);
        chownSync(node, NOBODY, NOBODY);
        await expect(hookNode({ cwd, home, env: {} }, node)).rejects.toThrow(
          `owned by uid ${NOBODY}`,
        );
      },
    );

    it("a running node in folders of yours is named by its own path", async () => {
      const { node, cwd, home } = teamNode();
      expect(await hookNode({ cwd, home, env: {} }, node)).toBe(node);
    });
  },
);
