import { constants, type Stats } from "node:fs";
import { resolve } from "node:path";
import { lstat, open, openedPath, realpath } from "../_io.js";
import { isCode, KIND_WORDS, kindOrError, messageOf, UnsafePathError } from "../_safe-write.js";
import { namesRefusal, openedRefusal } from "./door-checks.js";
import { openedElsewhere } from "./list-folder.js";
import { type YoursAt, yourPrivateRefusal } from "./own-private.js";
import type { PlantedCheck } from "./planted.js";

// The door's strict form, for the files a repository controls that are never
// links (goldens, scenario files, sysprompt.yaml): no link is followed at
// all, not even inside the project.

/**
 * The bytes of the regular file `path`, or `null` when there is none: the
 * read twin of `writeFileNoFollow`, for files a repository controls
 * (goldens, scenario files). Nothing but a regular file is opened (a link, a
 * folder, a FIFO, a socket or a device is refused, checked with lstat and
 * again on the open handle, which is opened without following a link and
 * without blocking), and never more than `maxBytes + 1` bytes are read.
 *
 * `planted` (a project's file, sysprompt.yaml): the door's planted check before
 * the open and its open-then-check after it ({@link openedRefusal}: the very
 * file checked, at its checked real path, no entry of it another user's in a
 * folder anyone may write to), so a folder swapped between the check and the
 * open is refused, not read (review rev67a F2).
 *
 * `at` (a file of a folder judged by its real path: a golden, a scenario file
 * `snapshot` lists): where the opened file must lie ({@link openedElsewhere}),
 * else it is gone: `O_NOFOLLOW` guards the last name only, and a folder on the
 * way swapped for a link would take the open elsewhere (decided, review rev92a
 * F4: your `~/.pi/agent/AGENTS.md` was printed as a golden's lines).
 *
 * `anyNames` (your own `sysprompt.yaml` in the agent dir, not a repository's
 * file; a git `HEAD`, of which only whether git takes it is asked): a hard
 * link is read. Every other file is a repository's, and one with more than
 * one name is refused ({@link namesRefusal}, also part of
 * {@link openedRefusal}: a golden hard-linked to your `~/.ssh/id_rsa` would
 * print it in a diff; decided, review rev96a F1).
 *
 * `yours` (your own `sysprompt.yaml`): never one of your private files, by its
 * real path or, with more than one name, its identity ({@link yourPrivateRefusal};
 * decided, review rev99a: a private file of yours is never read into a prompt).
 *
 * @throws UnsafePathError (`unsafe-target`, `too-large`, `write-failed` for a
 * read error) naming the path.
 */
export async function readFileNoFollow(
  path: string,
  maxBytes: number,
  o: {
    planted?: PlantedCheck | undefined;
    at?: string | undefined;
    anyNames?: boolean;
    yours?: YoursAt | undefined;
  } = {},
): Promise<Buffer | null> {
  const { planted, at } = o;
  const target = resolve(path);
  const kind = await kindOrError(target);
  if (kind instanceof UnsafePathError) throw kind;
  if (kind === "missing") return null;
  if (kind !== "file") {
    throw new UnsafePathError(
      "unsafe-target",
      target,
      `${KIND_WORDS[kind]}, not a regular file: it is not read`,
    );
  }
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    const checked = planted && (await checkedBefore(target, planted));
    handle = await open(
      checked?.real ?? target,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    if (at !== undefined && openedElsewhere(handle, at)) {
      throw new UnsafePathError("unsafe-target", target, "gone while being read: it is not read");
    }
    const s = await handle.stat();
    if (!s.isFile()) {
      throw new UnsafePathError("unsafe-target", target, "not a regular file: it is not read");
    }
    const opened = handle;
    const refusal =
      checked !== undefined && planted !== undefined
        ? openedRefusal(
            { ...checked, s, opened: () => openedPath(opened), now: undefined },
            { planted },
            undefined,
          )
        : o.anyNames
          ? undefined
          : namesRefusal(s, target);
    const secret =
      o.yours && yourPrivateRefusal(await realpath(target).catch(() => target), s, o.yours);
    if (secret) throw new UnsafePathError("unsafe-target", target, secret.message);
    if (refusal) throw new UnsafePathError("unsafe-target", target, refusal.message);
    const buffer = Buffer.alloc(Math.min(s.size, maxBytes) + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) {
      throw new UnsafePathError("too-large", target, `over ${maxBytes} bytes: it is not read`);
    }
    return buffer.subarray(0, filled);
  } catch (error) {
    if (error instanceof UnsafePathError) throw error;
    if (isCode(error, "ENOENT")) return null;
    if (isCode(error, "ELOOP")) {
      throw new UnsafePathError(
        "unsafe-target",
        target,
        "a symbolic link, not a regular file: it is not read",
      );
    }
    throw new UnsafePathError("unreadable", target, `cannot read it: ${messageOf(error)}`, {
      cause: error,
    });
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The file's stats and real path before the open, or the planted refusal (thrown). */
async function checkedBefore(
  target: string,
  planted: PlantedCheck,
): Promise<{ real: string; before: Stats }> {
  // lstat: a final link put in since the kind was asked is no file (the open would not follow it either).
  const before = await lstat(target);
  if (!before.isFile()) {
    throw new UnsafePathError("unsafe-target", target, "not a regular file: it is not read");
  }
  const real = await realpath(target);
  const refusal = planted(real);
  if (refusal) throw new UnsafePathError("unsafe-target", target, refusal.message);
  return { real, before };
}
