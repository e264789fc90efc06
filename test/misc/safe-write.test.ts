import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  makeFolderPath,
  removeFileNoFollow,
  UnsafePathError,
  writeFileNoFollow,
  writeIfChanged,
  writeProblem,
} from "../../src/_safe-write.js";
import { tempDir } from "../api/_helpers.js";

/** The error a call threw, as `[class, code, path, reason]`. */
async function refusal(call: Promise<unknown>): Promise<unknown[]> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof UnsafePathError)) return [error];
  return ["UnsafePathError", error.code, error.path, error.reason];
}

describe("writeFileNoFollow", () => {
  it("writes a new file and replaces a regular one, leaving no temporary file", async () => {
    const dir = tempDir();
    await writeFileNoFollow(join(dir, "a.md"), "one\n");
    await writeFileNoFollow(join(dir, "a.md"), "two\n");
    expect([readdirSync(dir), readFileSync(join(dir, "a.md"), "utf8")]).toEqual([
      ["a.md"],
      "two\n",
    ]);
  });

  it("never writes through a link at the target: refused, and the link's target is untouched", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bashrc"), "mine\n");
    symlinkSync(join(dir, "bashrc"), join(dir, "a.md"));
    expect(await refusal(writeFileNoFollow(join(dir, "a.md"), "pwned\n"))).toEqual([
      "UnsafePathError",
      "unsafe-target",
      join(dir, "a.md"),
      "a symbolic link, not a regular file: it is not written through",
    ]);
    expect(readFileSync(join(dir, "bashrc"), "utf8")).toBe("mine\n");
    expect(readdirSync(dir).sort()).toEqual(["a.md", "bashrc"]);
  });

  it("a dangling link, a folder or a FIFO at the target is refused", async () => {
    const dir = tempDir();
    symlinkSync(join(dir, "nowhere"), join(dir, "dangling"));
    mkdirSync(join(dir, "folder"));
    execFileSync("mkfifo", [join(dir, "fifo")]);
    const reasons = [];
    for (const name of ["dangling", "folder", "fifo"]) {
      reasons.push((await refusal(writeFileNoFollow(join(dir, name), "x")))[3]);
    }
    expect(reasons).toEqual([
      "a symbolic link, not a regular file: it is not written through",
      "a folder, not a regular file: it is not written",
      "a FIFO, not a regular file: it is not written",
    ]);
    expect(readdirSync(dir).sort()).toEqual(["dangling", "fifo", "folder"]);
  });

  it("with `within`, a link or a file among the folders on the way is refused, missing ones are created", async () => {
    const root = tempDir();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(root, ".pi"));
    expect(
      await refusal(writeFileNoFollow(join(root, ".pi/sections/a.md"), "x", { within: root })),
    ).toEqual([
      "UnsafePathError",
      "unsafe-target",
      join(root, ".pi"),
      "a symbolic link, not a folder: nothing is written through it",
    ]);
    expect(readdirSync(elsewhere)).toEqual([]);

    const other = tempDir();
    writeFileSync(join(other, ".pi"), "a file\n");
    expect(
      (
        await refusal(writeFileNoFollow(join(other, ".pi/sections/a.md"), "x", { within: other }))
      )[3],
    ).toBe("a regular file, not a folder: nothing is written through it");

    const fresh = tempDir();
    await writeFileNoFollow(join(fresh, ".pi/sections/a.md"), "x", { within: fresh });
    expect(readFileSync(join(fresh, ".pi/sections/a.md"), "utf8")).toBe("x");
  });

  it("exclusive: an existing file is left alone", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.md"), "old\n");
    expect(
      await refusal(writeFileNoFollow(join(dir, "a.md"), "new\n", { exclusive: true })),
    ).toEqual([
      "UnsafePathError",
      "target-exists",
      join(dir, "a.md"),
      "already exists; it is left alone",
    ]);
    expect([readdirSync(dir), readFileSync(join(dir, "a.md"), "utf8")]).toEqual([
      ["a.md"],
      "old\n",
    ]);
  });
});

describe("makeFolderPath", () => {
  it("makes each missing folder one level at a time and returns them in order; an existing one is taken", () => {
    const base = tempDir();
    mkdirSync(join(base, "real"));
    symlinkSync(join(base, "real"), join(base, "link"));
    expect(makeFolderPath(join(base, "link", "a", "b"), 0o700)).toEqual([
      join(base, "link", "a"),
      join(base, "link", "a", "b"),
    ]);
    expect(statSync(join(base, "real", "a", "b")).mode & 0o777).toBe(0o700);
    expect(makeFolderPath(join(base, "link", "a", "b"), 0o700)).toEqual([]);
  });

  it("a file on the way is refused, nothing made", () => {
    const base = tempDir();
    writeFileSync(join(base, "f"), "x");
    expect(() => makeFolderPath(join(base, "f", "a", "b"), 0o700)).toThrow(UnsafePathError);
    expect(readdirSync(base)).toEqual(["f"]);
  });

  it.skipIf(process.platform !== "linux")(
    "ENOENT below a folder that exists (/proc) is a refusal at once (rev66d F7)",
    () => {
      let error: unknown;
      try {
        makeFolderPath("/proc/sysprompt-test/a", 0o700);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UnsafePathError);
      expect((error as UnsafePathError).path).toBe("/proc/sysprompt-test");
    },
  );
});

describe("writeIfChanged", () => {
  it("leaves a file with the same bytes untouched (mtime kept), writes one that differs", async () => {
    const dir = tempDir();
    const file = join(dir, "prompt.md");
    expect(await writeIfChanged(file, "hello\n")).toBe("written");
    utimesSync(file, 1_000_000, 1_000_000);
    expect(await writeIfChanged(file, "hello\n")).toBe("unchanged");
    expect(statSync(file).mtimeMs).toBe(1_000_000_000);
    expect(await writeIfChanged(file, "hello!\n")).toBe("written");
    expect(readFileSync(file, "utf8")).toBe("hello!\n");
  });

  it("a link to a file with the very same bytes is still refused", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "real"), "same\n");
    symlinkSync(join(dir, "real"), join(dir, "prompt.md"));
    expect((await refusal(writeIfChanged(join(dir, "prompt.md"), "same\n")))[1]).toBe(
      "unsafe-target",
    );
  });
});

describe("writeProblem and removeFileNoFollow", () => {
  it("writeProblem says what a write would refuse, without writing", async () => {
    const dir = tempDir();
    symlinkSync("/etc/hostname", join(dir, "l"));
    expect([
      await writeProblem(join(dir, "new.md")),
      (await writeProblem(join(dir, "l")))?.reason,
      (await writeProblem(join(dir, "no/such/x.md")))?.reason,
    ]).toEqual([
      undefined,
      "a symbolic link, not a regular file: it is not written through",
      "there is no such folder",
    ]);
    expect(readdirSync(dir)).toEqual(["l"]);
  });

  it("removes a regular file; refuses a link (the link stays)", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.txt"), "x");
    symlinkSync(join(dir, "a.txt"), join(dir, "b.txt"));
    expect((await refusal(removeFileNoFollow(join(dir, "b.txt"))))[1]).toBe("unsafe-target");
    await removeFileNoFollow(join(dir, "a.txt"));
    await removeFileNoFollow(join(dir, "gone.txt"));
    expect(readdirSync(dir)).toEqual(["b.txt"]);
  });
});
