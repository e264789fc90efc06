import { describe, expect, it } from "vitest";
import { groupIsOnlyYours } from "../../src/_others-write.js";

// Review rev70b F5 (low/medium). `/etc/group`'s gid field (and `/etc/passwd`'s
// uid and gid) was read as `^\d+$`, stricter than glibc: its files backend
// reads a number with `strtoul` (`INT_FIELD`, nss/nss_files/files-parse.c),
// which skips leading white space and takes a sign, so `me2:x: 1000:mallory`
// or `+1000` puts mallory in gid 1000 while sysprompt skipped the line, and a
// folder of that group's was judged "only yours". The same reading missed
// `initgroups`' own: it parses every line of /etc/group, a commented-out one
// too (nss/nss_files/files-initgroups.c), and a NIS `+`/`-` line's members,
// and glibc takes a line with no members field (`me:x:1000`) as an entry.

const passwd = [
  "root:x:0:0::/root:/bin/sh",
  "me:x:1000:1000::/home/me:/bin/sh",
  "mallory:x:1001:1001::/home/mallory:/bin/sh",
].join("\n");
const me = { uid: 1000, gid: 1000, name: "me", listed: true };
const only = (group: string, users = passwd) =>
  groupIsOnlyYours(1000, me, { passwd: users, group });

describe("hostile system files: a group's members read as glibc reads /etc/group", () => {
  it("group-file-gid-strtoul: a gid with leading white space or a + sign is the gid", () => {
    expect(only("me:x:1000:\nme2:x:1000:mallory\n")).toBe(false);
    expect(only("me:x:1000:\nme2:x: 1000:mallory\n")).toBe(false);
    expect(only("me:x:1000:\nme2:x:+1000:mallory\n")).toBe(false);
    expect(only("me:x:1000:\nme2:x:\t\v1000:mallory\n")).toBe(false);
    expect(only("me:x:1000:\nme2:x: +001000:mallory\n")).toBe(false);
    // A member's leading blank is skipped by glibc: ` me` is you.
    expect(only("me:x:1000: me\n")).toBe(true);
    // glibc rejects a gid with anything after its digits: no entry, mallory not in it.
    expect(only("me:x:1000:\nme2:x:1000 :mallory\n")).toBe(true);
    expect(only("me:x:1000:\nme2:x:1000x:mallory\n")).toBe(true);
    expect(only("me:x:1000:\nme2:x:+:mallory\n")).toBe(true);
  });

  it("group-file-passwd-strtoul: a primary gid with a leading blank or a sign is the gid", () => {
    const users = (gid: string) => `${passwd}\nbob:x:1002:${gid}::/home/bob:/bin/sh`;
    expect(only("me:x:1000:\n", users("1000"))).toBe(false);
    expect(only("me:x:1000:\n", users(" 1000"))).toBe(false);
    expect(only("me:x:1000:\n", users("+1000"))).toBe(false);
    // A uid read so too: bob's name counts as uid 1000's, yours.
    expect(only("me:x:1000:bob\n", `${passwd}\nbob:x: +1000:1000::/home/bob:/bin/sh`)).toBe(true);
  });

  it("group-file-initgroups: a commented-out entry, a NIS line's members and a line with no members field count", () => {
    // initgroups parses every line: mallory gets gid 1000 at login.
    expect(only("me:x:1000:\n#me2:x:1000:mallory\n")).toBe(false);
    expect(only("me:x:1000:\n+me2:x:1000:mallory\n")).toBe(false);
    // `me:x:1000` is an entry: the group is listed, so mallory's primary group 1000 counts.
    const primary = `${passwd}\nbob:x:1002:1000::/home/bob:/bin/sh`;
    expect(only("root:x:0:\nme:x:1000", primary)).toBe(false);
    expect(only("root:x:0:\nme:x:1000")).toBe(true);
    // A comment that is no entry changes nothing.
    expect(only("me:x:1000:\n# mallory is in 1000\n")).toBe(true);
  });
});
