import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { userInfo } from "node:os";

// Who besides you may write an entry, by its stats alone: the one rule of the
// door's planted-file test, the project root's marker test, the PATH search
// for a system binary (walked from `/` by `_shared-way.ts`), the cache folder
// and `export --out` (review rev68a F1:
// the door read the other bit only, so a group member's AGENTS.md in a setgid
// team share was the repository's). A POSIX ACL's mask stands in the group
// bits, so a folder whose ACL lets another user write reads as group-writable,
// but those bits are judged by the owning group: known limit (review rev69c
// F2), an ACL on a folder of your private group is not seen, Node having no
// call that reads `system.posix_acl_access`.

/** The stats the rule reads: no look-up beyond the stat the caller made. */
export interface WriteBits {
  mode: number;
  gid: number;
  /** The entry's owner, who may write it anyway: a group of theirs alone adds no one. */
  uid: number;
}

/**
 * How other users may write an entry with these stats: `world-writable`, or
 * `group-writable, gid N` when its group may write it and holds someone
 * besides you, root and the entry's owner ({@link isOwnGroup}: a user
 * private group, yours or the owner's, adds no one); undefined when no one
 * else may (and
 * always on a system without POSIX owners, Windows, where Node gives every
 * writable entry `0o666`). Root may write anything and is not counted.
 */
export function othersWrite(s: WriteBits): string | undefined {
  if (process.getuid === undefined) return undefined;
  if ((s.mode & 0o002) !== 0) return "world-writable";
  if ((s.mode & 0o020) !== 0 && !isOwnGroup(s.gid, s.uid)) return `group-writable, gid ${s.gid}`;
  return undefined;
}

/** Whether a user other than you (or root) may write an entry with these stats: {@link othersWrite}. */
export function othersMayWrite(s: WriteBits): boolean {
  return othersWrite(s) !== undefined;
}

/** What the system's files say of its users and groups, read once a process. */
export interface GroupFiles {
  /** `/etc/group`'s text, undefined when unreadable. */
  group: string | undefined;
  /** `/etc/passwd`'s text, undefined when unreadable. */
  passwd: string | undefined;
}

/** Who you are: your uid, primary gid and user name. */
export interface Me {
  uid: number;
  gid: number;
  name: string | undefined;
  /** Whether `/etc/passwd` lists you: else users come from elsewhere (LDAP, macOS's directory), and the files cannot say who else has a group. */
  listed: boolean;
  /** Run as root under `sudo`: the uid of the user who ran it (`$SUDO_UID`), who counts as you, as the owner tests count them. */
  sudo?: number;
}

/**
 * Whether group `gid` holds no user but you (or root): a group whose members,
 * as `/etc/group` lists them (every line with its gid, as `initgroups` merges
 * them: `groupadd -o` gives one gid two names; a `#` line shaped as an entry
 * too, which `initgroups` reads; numbers read as glibc reads them) and as
 * `/etc/passwd` gives it to users as their primary group, are you alone, and
 * you are in it (your primary group, or listed): a user private group
 * (`useradd` makes one named like you; a umask of 002 makes every folder of
 * yours writable by it). Root's group (gid 0) is judged so too: it is yours
 * when it holds root alone, not when the files add a user to it (OpenShift's
 * `chgrp -R 0` images, a BSD `wheel`; review rev69c F4).
 * Under `sudo`, the user who ran it is you too (`sudo sysprompt render` in a
 * clone of yours made with umask 002 keeps its root). `owner`: the entry's
 * owner, who counts as you here, since the group adds no one who may not
 * write it already (a colleague's umask-002 checkout: their private group).
 * Where the files cannot say (a group they do not list, you are not in
 * `/etc/passwd`, or either file holds a NIS `+`/`-` line: users and groups
 * from LDAP, NIS, macOS's directory) a group is yours when it is your primary
 * group and its gid is your uid, as `useradd` numbers them, and it lists no
 * other member.
 * A shared group (`users`, `staff`, a team's) is not: each of its members may
 * write there. The files are parsed once per `files` object (review rev69c F5).
 */
export function groupIsOnlyYours(gid: number, me: Me, files: GroupFiles, owner?: number): boolean {
  const known = parsedFiles(files);
  const yours = (uid: number) => uid === 0 || uid === me.uid || uid === me.sudo || uid === owner;
  const names = new Set<string>();
  if (me.name !== undefined) names.add(me.name);
  for (const uid of [0, me.uid, me.sudo, owner])
    for (const name of uid === undefined ? [] : (known.namesOf.get(uid) ?? [])) names.add(name);
  const members = known.members.get(gid);
  if (members !== undefined) for (const m of members) if (!names.has(m)) return false;
  if (members === undefined || !me.listed || !known.complete)
    return gid === me.uid && gid === me.gid;
  const primary = known.primaryOf.get(gid) ?? [];
  if (primary.some((uid) => !yours(uid))) return false;
  return gid === me.gid || primary.length > 0 || members.size > 0;
}

/** What `/etc/passwd` and `/etc/group` say, parsed once: see {@link parsedFiles}. */
interface ParsedFiles {
  /** Each uid's names (a uid may have more than one line). */
  namesOf: Map<number, string[]>;
  /** Each gid's users whose primary group it is. */
  primaryOf: Map<number, number[]>;
  /** Each gid's listed members, the union of every line with that gid. */
  members: Map<number, Set<string>>;
  /** Both files read and neither holds a NIS `+`/`-` line, which adds entries from elsewhere. */
  complete: boolean;
}

const parsed = new WeakMap<GroupFiles, ParsedFiles>();

/** C's white space (`isspace` in the C locale), which glibc's line reader and `strtoul` skip. */
const C_SPACE = /^[ \t\n\v\f\r]+/;

/**
 * The lines of a system file that are entries as glibc's files backend
 * reads them for a look-up (`__nss_readline`, nss/nss_readline.c): leading
 * white space skipped (C's `isspace`: space, TAB, VT, FF, CR), `#`
 * comments and empty lines left out. With `comments`, a `#` line is kept:
 * `initgroups` reads `/etc/group` with `getline` and parses every line
 * (nss/nss_files/files-initgroups.c), so a commented-out line shaped as an
 * entry still gives its members the group at login.
 */
function entryLines(text: string, comments = false): string[] {
  const lines: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(C_SPACE, "");
    if (line !== "" && (comments || !line.startsWith("#"))) lines.push(line);
  }
  return lines;
}

/** A field of digits alone. */
const DIGITS = /^\d+$/;

/** 2^64: `strtoul`'s range on a 64-bit system. */
const ULONG = 2n ** 64n;

/**
 * A numeric field (a uid or gid) as glibc's files backend reads it,
 * `INT_FIELD` in nss/nss_files/files-parse.c: `strtoul` in base 10 (C's
 * white space skipped, an optional `+` or `-`, at least one digit), then
 * nothing but the field's end; the value clamped to 32 bits (`strtou32`). A
 * `-` negates modulo 2^64 (`-0` is 0, `-1` is 0xffffffff), a value past
 * 2^64 - 1 is that. Undefined where glibc rejects the line (no digit, or
 * anything after them). Before, only `^\d+$` was read: ` 1000` and `+1000`,
 * which glibc reads as 1000, made a group's line and its members skipped
 * (review rev70b F5).
 */
function cNumber(field: string): number | undefined {
  // The usual field, digits alone, read without the expression's captures.
  if (field.length <= 15 && DIGITS.test(field)) return Math.min(Number(field), 0xffffffff);
  const m = /^[ \t\n\v\f\r]*([+-]?)(\d+)$/.exec(field);
  if (m === null) return undefined;
  const [, sign, digits = ""] = m;
  if (digits.length <= 15 && sign !== "-") return Math.min(Number(digits), 0xffffffff);
  let value = BigInt(digits);
  if (value >= ULONG) value = ULONG - 1n;
  else if (sign === "-") value = (ULONG - value) % ULONG;
  return value > 0xffffffffn ? 0xffffffff : Number(value);
}

/** {@link ParsedFiles} of `files`, parsed on its first use and kept while the object lives. */
function parsedFiles(files: GroupFiles): ParsedFiles {
  const cached = parsed.get(files);
  if (cached !== undefined) return cached;
  const result: ParsedFiles = {
    namesOf: new Map(),
    primaryOf: new Map(),
    members: new Map(),
    complete: files.passwd !== undefined && files.group !== undefined,
  };
  for (const user of files.passwd === undefined ? [] : passwdEntries(files.passwd)) {
    if (user.nis) {
      result.complete = false;
      continue;
    }
    const names = result.namesOf.get(user.uid) ?? [];
    names.push(user.name);
    result.namesOf.set(user.uid, names);
    const primary = result.primaryOf.get(user.gid) ?? [];
    primary.push(user.uid);
    result.primaryOf.set(user.gid, primary);
  }
  for (const line of files.group === undefined ? [] : entryLines(files.group, true)) {
    // A NIS line adds groups from elsewhere (a `#` line is a comment to a look-up).
    const nis = line.startsWith("+") || line.startsWith("-");
    if (nis) result.complete = false;
    const entry = groupEntry(line, nis);
    if (entry === undefined) continue;
    const members = result.members.get(entry.gid) ?? new Set<string>();
    for (const m of entry.members) members.add(m);
    result.members.set(entry.gid, members);
  }
  parsed.set(files, result);
  return result;
}

/**
 * A line of `/etc/group` as glibc parses it (`_nss_files_parse_grent`,
 * nss/fgetgrent_r.c): name, password, the gid read by {@link cNumber} (on
 * a NIS `+`/`-` line an empty one is 0), then the members, the rest of the
 * line split at commas (each one's leading white space skipped; a trailing
 * blank kept as part of it, so another name: counted, never missed). A line
 * with no third field is an entry with no members (`g:x:1000`). Undefined
 * for a line glibc rejects, or a NIS line with no gid.
 */
function groupEntry(line: string, nis: boolean): { gid: number; members: string[] } | undefined {
  const fields = line.split(":");
  const field = fields[2];
  if (field === undefined) return undefined;
  const gid = nis && field === "" && fields.length > 3 ? 0 : cNumber(field);
  if (gid === undefined) return undefined;
  const members: string[] = [];
  const list = fields.length === 4 ? (fields[3] as string) : fields.slice(3).join(":");
  for (const m of list === "" ? [] : list.split(",")) {
    const member = m.charCodeAt(0) > 0x20 ? m : m.replace(C_SPACE, "");
    if (member !== "") members.push(member);
  }
  return { gid, members };
}

/** The users `/etc/passwd` lists: name, uid and primary gid ({@link cNumber}); `nis` for a `+`/`-` line. */
function passwdEntries(text: string): { name: string; uid: number; gid: number; nis: boolean }[] {
  const users: { name: string; uid: number; gid: number; nis: boolean }[] = [];
  for (const line of entryLines(text)) {
    const nis = line.startsWith("+") || line.startsWith("-");
    const [name = "", , uidField, gidField] = line.split(":");
    if (nis) {
      users.push({ name, uid: -1, gid: -1, nis });
      continue;
    }
    const uid = uidField === undefined ? undefined : cNumber(uidField);
    const gid = gidField === undefined ? undefined : cNumber(gidField);
    if (uid !== undefined && gid !== undefined) users.push({ name, uid, gid, nis });
  }
  return users;
}

let verdicts: Map<string, boolean> | undefined;
let context: { me: Me; files: GroupFiles } | undefined;

/** The most bytes of each file read: a machine's are a few KiB; 8 MiB holds some 100,000 entries. */
const MAX_BYTES = 8 * 1024 * 1024;

/** A system file's text, undefined when unreadable or larger than {@link MAX_BYTES} (not to be judged on a part). */
function readOrUndefined(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const stated = fstatSync(fd);
    if (!stated.isFile() || stated.size > MAX_BYTES) return undefined;
    // One byte past the size it said: a file that grew since is not judged on a part.
    const buffer = Buffer.allocUnsafe(stated.size + 1);
    let size = 0;
    for (let n = -1; n !== 0 && size < buffer.length; size += n)
      n = readSync(fd, buffer, size, buffer.length - size, null);
    return size === buffer.length ? undefined : buffer.toString("utf8", 0, size);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * {@link groupIsOnlyYours} of this process's user: the files read and parsed
 * once, on the first group-writable entry, and each group's
 * verdict kept, so the check costs no look-up per entry.
 */
export function isOwnGroup(gid: number, owner?: number): boolean {
  verdicts ??= new Map();
  const key = `${gid}:${owner ?? ""}`;
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  if (context === undefined) {
    const uid = process.getuid?.() ?? -1;
    const passwd = readOrUndefined("/etc/passwd");
    const files = { group: readOrUndefined("/etc/group"), passwd };
    let name = parsedFiles(files).namesOf.get(uid)?.[0];
    const listed = name !== undefined;
    const sudo = uid === 0 ? process.env.SUDO_UID : undefined;
    if (name === undefined) {
      try {
        name = userInfo().username;
      } catch {
        // No entry for this uid anywhere: no listed member is you.
      }
    }
    context = {
      me: {
        uid,
        gid: process.getgid?.() ?? -1,
        name,
        listed,
        ...(sudo !== undefined && /^\d+$/.test(sudo) ? { sudo: Number(sudo) } : {}),
      },
      files,
    };
  }
  const verdict = groupIsOnlyYours(gid, context.me, context.files, owner);
  verdicts.set(key, verdict);
  return verdict;
}
