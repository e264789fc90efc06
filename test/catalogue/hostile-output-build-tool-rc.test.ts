import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runByNameOf } from "../../src/cli/commands/_output-file.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev66d F6: `-o` wrote `.bazelrc`, `gradle.properties` and `.tool-versions`, files that
// build tools take line by line by their name, while `.npmrc` and `.yarnrc` were refused. Bazel
// skips a line whose first word is no command, so an AGENTS.md's `build --run_under="sh -c …"`
// line applied at the next `bazel run`; Gradle started its JVM with a repository's
// `org.gradle.jvmargs=…`; asdf's `nodejs path:DIR` ran DIR's `bin/node` for every `node`.

const NAMES = [".bazelrc", "user.bazelrc", ".bazelrc.user", "gradle.properties", ".tool-versions"];

describe("hostile-output-build-tool-rc: -o refuses build tools' rc files", () => {
  it("each is a file another program runs by name, wherever it is", () => {
    for (const name of NAMES) {
      expect(runByNameOf(`/srv/p/${name}`), name).toBeDefined();
      expect(runByNameOf(`/srv/p/sub/${name.toUpperCase()}`), name).toBeDefined();
    }
    for (const name of ["bazelrc.md", "gradle.properties.md", "tool-versions"]) {
      expect(runByNameOf(`/srv/p/${name}`), name).toBeUndefined();
    }
  });

  it.each(NAMES)("render -o ../other/%s is refused, nothing written", async (name) => {
    const root = tempDir();
    for (const dir of ["p/.git", "home", "agent", "other"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    writeFileSync(join(root, "p/AGENTS.md"), "# P\n\nbuild --run_under=\"sh -c 'id'\"\n");
    const out = await cli(root, join(root, "p"), ["render", "-o", `../other/${name}`], {
      home: join(root, "home"),
    });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`a file named ${name}`);
    expect(existsSync(join(root, "other", name))).toBe(false);
  });
});
