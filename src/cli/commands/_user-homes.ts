import { readTextFile } from "../../_fs.js";
import { realpath } from "../../_io.js";
import { isWithin } from "../../_paths.js";

/** The system's list of users, whose home folders {@link otherHomes} reads. */
export const PASSWD = "/etc/passwd";

/** The most bytes of it read: a machine's is a few KiB; 8 MiB holds some 100,000 users. */
const PASSWD_MAX_BYTES = 8 * 1024 * 1024;

/** The most home folders taken from it (each is looked up by its real path once). */
const HOMES_MAX = 4096;

/** A shell no one logs in with (a service account's: `www-data`, `nobody`): no person's start-up files there. */
const NO_LOGIN = /(?:^|\/)(?:nologin|false|sync|shutdown|halt)$/;

/** Another user's home folder: `user` (a name from the list) lives at `home`, also reached as `real`. */
export interface UserHome {
  user: string;
  home: string;
  real: string;
}

/**
 * The home folders of the machine's other users, where `-o` writes no dot-name
 * as it writes none in yours: each user of `passwd` with a login shell, and,
 * running as root, the user `sudo` was run by (`$SUDO_UID`, whatever the shell:
 * owner.ts takes that user for you too). Run as root, `-o ~alice/.bashrc.d/x.sh`
 * was written (rev66d F5). Never `/`, nor your home folder or one that holds it.
 * No list (Windows, an unreadable file): none.
 */
export async function otherHomes(
  passwd: string,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<UserHome[]> {
  const read = await readTextFile(passwd, PASSWD_MAX_BYTES);
  if (!read.ok) return [];
  const sudo = process.getuid?.() === 0 ? env.SUDO_UID : undefined;
  const realHome = await realpath(home).catch(() => home);
  const yours = (h: string) => h === "/" || isWithin(home, h) || isWithin(realHome, h);
  const found: UserHome[] = [];
  for (const line of read.text.split("\n")) {
    if (found.length >= HOMES_MAX) break;
    const [user = "", , uid, , , home = "", shell = ""] = line.split(":");
    if (!home.startsWith("/")) continue;
    if (NO_LOGIN.test(shell.trim()) && (sudo === undefined || uid !== sudo)) continue;
    if (yours(home)) continue;
    const real = await realpath(home).catch(() => home);
    if (!yours(real)) found.push({ user, home, real });
  }
  return found;
}
