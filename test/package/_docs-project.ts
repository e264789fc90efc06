import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../api/_helpers.js";
import { BUILT_CLI } from "../catalogue/_built.js";
import { REPO } from "../docs/_docs.js";

// A project of its own for running the docs' commands as written: `sysprompt`
// and `npx sysprompt` are stand-ins for this checkout's built CLI (npx would
// otherwise ask the registry), and on request the project's `dist` links to
// the checkout's, for the lines that run `node dist/src/cli/bin.js`.

export interface DocsProject {
  root: string;
  /** The project folder, where commands run. */
  dir: string;
  /** The folder of the stand-ins, first on PATH. */
  bin: string;
}

/**
 * A fresh project holding `files` (paths relative to it), with the stand-ins; `linkDist` adds
 * the `dist` link (a link in the project, which a scenario at its root refuses to copy).
 */
export function docsProject(
  files: Record<string, string> = {},
  { linkDist = false }: { linkDist?: boolean } = {},
): DocsProject {
  const root = tempDir();
  const dir = join(root, "project");
  mkdirSync(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  if (linkDist) symlinkSync(join(REPO, "dist"), join(dir, "dist"));
  const bin = join(root, "bin");
  mkdirSync(bin);
  const cli = `exec "${process.execPath}" "${BUILT_CLI}" "$@"`;
  writeFileSync(join(bin, "sysprompt"), `#!/bin/sh\n${cli}\n`);
  writeFileSync(join(bin, "npx"), `#!/bin/sh\n[ "$1" = sysprompt ] || exit 127\nshift\n${cli}\n`);
  chmodSync(join(bin, "sysprompt"), 0o755);
  chmodSync(join(bin, "npx"), 0o755);
  return { root, dir, bin };
}

/** Runs `script` with `sh -e` in the project: the stand-ins first on PATH, HOME and the cache its own. */
export function sh(script: string, p: DocsProject) {
  const out = spawnSync("sh", ["-e", "-c", script], {
    cwd: p.dir,
    encoding: "utf8",
    env: {
      PATH: `${p.bin}:${process.env.PATH ?? ""}`,
      HOME: join(p.root, "home"),
      XDG_CACHE_HOME: join(p.root, "cache"),
    },
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}
