import { relative } from "node:path";
import { leavesFolder } from "../../_paths.js";
import { UnsafePathError } from "../../_safe-write.js";
import type { EjectDiff, EjectDiffOptions, EjectDiffText } from "../../author/index.js";
import { diffEjected } from "../../author/index.js";
import { paletteFor } from "../colors.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, EXIT_OK, RefusedError, UsageError } from "../io.js";
import { flagPaths } from "../options.js";

/** The flags of `sysprompt eject`; `--diff` hands them all to this file. */
export interface EjectFlags {
  all?: boolean;
  cwd?: string;
  user?: boolean;
  agentDir?: string;
  force?: boolean;
  json?: boolean;
  diff?: boolean;
}

/**
 * `sysprompt eject --diff NAME`: the three-way view of one ejected section
 * (or, with `general-rules`, of the general rules' list `eject rules` copies),
 * as two unified diffs from the builtin it was copied from: to the builtin
 * now (what the package changed) and to the copy (what the project changed).
 * When "the builtin then" is unknown, the builtin now against the copy.
 * Exit 0 whatever it shows; a bad name or a missing copy is exit 2.
 */
export async function ejectDiffCommand(
  names: string[],
  flags: EjectFlags,
  io: CliIo,
): Promise<number> {
  if (flags.all || flags.force) {
    throw new UsageError(
      `--diff shows one section; it does not go with ${flags.all ? "--all" : "--force"}`,
    );
  }
  const [name, ...more] = names;
  if (name === undefined || more.length > 0) {
    throw new UsageError("--diff takes exactly one section name: sysprompt eject --diff rules");
  }
  const paths = flagPaths(flags, io.cwd, io.home);
  const options: EjectDiffOptions = { ...paths, env: io.env, name };
  if (io.home !== undefined) options.home = io.home;
  if (flags.user) options.user = true;
  const result = await diffEjected(options).catch((error: unknown) => {
    // The copy is a link, or was swapped for one while it was read: what is on disk, not a usage.
    if ((error as Error).cause instanceof UnsafePathError)
      throw new RefusedError((error as Error).message);
    throw error;
  });
  if (flags.json) {
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return EXIT_OK;
  }
  const show = (path: string) => {
    const rel = relative(paths.cwd, path);
    return leavesFolder(rel) ? path : rel;
  };
  io.stdout(await renderEjectDiff(result, show));
  io.stderr(formatDiagnostics(result.diagnostics, paletteFor(io).level));
  return EXIT_OK;
}

/** The text `eject --diff` prints: one line that says what happened, then the diffs. */
export async function renderEjectDiff(
  result: EjectDiff,
  show: (path: string) => string,
): Promise<string> {
  const { name, recorded, current, override } = result;
  const then = result.builtinThen;
  const now = result.builtinNow;
  const copy = show(override.path);
  const thenLabel = `builtin then (${recorded})`;
  const nowLabel = `builtin now (${current})`;
  const parts: string[] = [];
  if (recorded === undefined) {
    parts.push(
      `${name}: ${copy} has no ejected-from record (written by hand, or copied before sysprompt kept one)${now ? "; the builtin now against the copy:" : ", and there is no builtin of that name"}\n`,
    );
    if (now) parts.push(await patch(name, now, override, nowLabel, "your copy"));
  } else if (!result.drifted) {
    parts.push(
      `${name}: the builtin has not changed since ${copy} was copied from it (${recorded}); the builtin against the copy:\n`,
    );
    parts.push(await patch(name, then ?? now ?? override, override, thenLabel, "your copy"));
  } else {
    parts.push(
      now
        ? `${name}: the builtin changed since ${copy} was copied from it (${recorded}, now ${current})\n`
        : `${name}: the builtin ${copy} was copied from (${recorded}) is no longer there\n`,
    );
    if (then && now) parts.push(await patch(name, then, now, thenLabel, nowLabel));
    if (then) parts.push(await patch(name, then, override, thenLabel, "your copy"));
    else {
      parts.push(
        `the builtin as it was is unknown (no kept text in ${show(keptFolder(override.path))}); ${now ? "the builtin now against the copy:" : "nothing to compare with"}\n`,
      );
      if (now) parts.push(await patch(name, now, override, nowLabel, "your copy"));
    }
  }
  return parts.join("\n");
}

/** `<layer>/.sysprompt/base/` for `<layer>/sections/<name>.md` or `<layer>/general-rules.md`. */
function keptFolder(overridePath: string): string {
  return `${overridePath.replace(/([\\/]sections)?[\\/][^\\/]*$/, "")}/.sysprompt/base/`;
}

async function patch(
  name: string,
  from: EjectDiffText,
  to: EjectDiffText,
  fromLabel: string,
  toLabel: string,
): Promise<string> {
  const [{ FILE_HEADERS_ONLY }, { twoFilesPatch }] = await Promise.all([
    import("diff"),
    import("../../_text-diff.js"),
  ]);
  const file = `${name}.md`;
  const text = twoFilesPatch(file, file, from.text, to.text, fromLabel, toLabel, {
    headerOptions: FILE_HEADERS_ONLY,
  });
  return from.text === to.text ? `${text}(no difference)\n` : text;
}
