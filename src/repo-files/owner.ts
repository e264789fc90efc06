/**
 * The owner tests of the door and of the project-root search: who may have
 * put an entry where it lies. One place for both (review rev60a F1-F3).
 */

/** Owned by neither this user nor root: in a folder anyone may write to, anyone may have put it there. */
export function isForeignOwner(uid: number): boolean {
  const me = process.getuid?.();
  return me !== undefined && uid !== me && uid !== 0;
}

/**
 * Owned by neither this user, nor root, nor (running as root under `sudo`)
 * the user `sudo` was run by (`$SUDO_UID`), as git's `safe.directory` owner
 * check reads it: `sudo sysprompt render` in your own clone keeps its root
 * (review rev61c F2). For a repository marker only; the door's planted-file
 * test keeps {@link isForeignOwner}.
 */
export function isForeignMarkerOwner(uid: number): boolean {
  return isForeignOwner(uid) && uid !== sudoUser();
}

/** Run as root under `sudo`: the uid of the user who ran it (`$SUDO_UID`), else undefined. */
export function sudoUser(): number | undefined {
  const sudo = process.getuid?.() === 0 ? process.env.SUDO_UID : undefined;
  return sudo !== undefined && /^\d+$/.test(sudo) ? Number(sudo) : undefined;
}
