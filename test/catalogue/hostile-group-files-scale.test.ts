import { describe, expect, it } from "vitest";
import { groupIsOnlyYours } from "../../src/_others-write.js";

// A machine with 100,000 users (review rev69c F5): each new (gid, owner) pair
// parsed all of `/etc/passwd` and `/etc/group` again, so 200 verdicts cost
// 13.6 s of CPU, and a project of 3,000 folders of distinct owners and
// groups lost its context step. The files are parsed once per process now.

describe("catalogue: a big /etc/passwd is parsed once, not per verdict", () => {
  it("group-files-scale: 200 distinct verdicts against a 100,000-user passwd stay fast", () => {
    const users: string[] = ["root:x:0:0:root:/root:/bin/bash", "alice:x:2001:2001::/h:/bin/sh"];
    const groups: string[] = ["root:x:0:", "alice:x:2001:"];
    for (let i = 0; i < 100_000; i++) {
      users.push(`u${i}:x:${10_000 + i}:${20_000 + i}:User ${i}:/home/u${i}:/bin/bash`);
      groups.push(`g${i}:x:${20_000 + i}:u${i}`);
    }
    const files = { passwd: users.join("\n"), group: groups.join("\n") };
    const me = { uid: 2001, gid: 2001, name: "alice", listed: true };
    const start = process.cpuUsage();
    const verdicts: boolean[] = [];
    for (let i = 0; i < 200; i++)
      verdicts.push(groupIsOnlyYours(20_000 + i, me, files, 10_000 + i));
    const ms = process.cpuUsage(start).user / 1000;
    // Each group is its owner's private group: yours here, as the owner's own.
    expect(verdicts.every(Boolean)).toBe(true);
    expect(groupIsOnlyYours(20_000, me, files, 10_001)).toBe(false);
    // Idle: one parse, 0.3-0.5 s under load; before, 200 parses (16 s).
    expect(ms).toBeLessThan(3000);
  });
});
