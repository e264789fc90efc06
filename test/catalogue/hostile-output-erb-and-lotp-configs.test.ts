import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runByNameOf } from "../../src/cli/commands/_output-file.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev68d F3: `-o` wrote files Ruby tools render with ERB before reading them, an
// AGENTS.md's `<%= File.write(…) %>` line kept as it is: RSpec's `.rspec` and `.rspec-local`,
// RuboCop's `.rubocop.yml`, Rails' `config/database.yml` (and the other `config/*.yml`). ERB runs
// the line before any option or YAML parsing, so the prose around it stops nothing. The list
// now also holds the config files of the LOTP catalogue ("Living Off The Pipeline",
// boostsecurityio/lotp at 8157a0b: each tool's `files:` whose configuration runs code), taken
// whole rather than one review at a time.

const ERB = [
  ".rspec",
  ".rspec-local",
  ".rubocop.yml",
  ".rubocop_todo.yml",
  ".kitchen.yml",
  "config/database.yml",
  "config/storage.yml",
];

/** The `files:` of the LOTP catalogue's config-file tools, a pattern's `*` given a name. */
const LOTP = [
  ".yarnrc.yml",
  "build.xml",
  "ant.properties",
  "x.awk",
  "x.gawk",
  ".bashrc",
  ".initrc",
  ".bash_profile",
  "Gemfile",
  "x.gemspec",
  ".bundle/config",
  ".cargo/config.toml",
  "Cargo.toml",
  "build.rs",
  ".checkov.yml",
  ".checkov.yaml",
  "Dangerfile",
  "dangerfile.mts",
  "dangerfile.mjs",
  "dangerfile.js",
  "dangerfile.ts",
  "deno.json",
  "deno.jsonc",
  "package.json",
  "Dockerfile",
  "Earthfile",
  "eslint.config.js",
  "eslint.config.mjs",
  "eslint.config.cjs",
  ".eslintrc.js",
  ".eslintrc.cjs",
  ".flake8",
  "tox.ini",
  "setup.cfg",
  "manifest.json",
  "env/default/default.properties",
  "cloudbuild.yaml",
  "action.yml",
  "action.yaml",
  ".mega-linter.yml",
  ".golangci.yml",
  ".golangci.yaml",
  "golangci.toml",
  "golangci.json",
  ".gomplate.yaml",
  ".goreleaser.yaml",
  "settings.gradle",
  "settings.gradle.kts",
  "build.gradle",
  "build.gradle.kts",
  "justfile",
  "magefile.go",
  "magefiles/build.go",
  "Makefile",
  "pom.xml",
  "mkdocs.yml",
  "mkdocs.yaml",
  "Directory.Build.props",
  "Directory.Build.targets",
  "mypy.ini",
  ".mypy.ini",
  ".npmrc",
  "node_modules/.bin/x",
  "phpstan.neon",
  "phpstan.neon.dist",
  "phpstan.dist.neon",
  "requirements.txt",
  "constraints.txt",
  "setup.py",
  "pyproject.toml",
  ".pre-commit-config.yaml",
  ".prettierrc.js",
  ".prettierrc.config.js",
  "pylintrc",
  ".pylintrc",
  ".pylintrc.toml",
  "test_x.py",
  "x_test.py",
  "Rakefile",
  "x.rake",
  "x.sed",
  "x.filter",
  "sonar-project.properties",
  "stylelint.config.js",
  "stylelint.config.cjs",
  "stylelint.config.mjs",
  ".stylelintrc.js",
  ".stylelintrc.cjs",
  ".stylelintrc.mjs",
  ".stylelintrc",
  ".stylelintrc.yml",
  ".stylelintrc.yaml",
  ".stylelintrc.json",
  "trivy.yaml",
  ".vale.ini",
  "webpack.config.js",
  ".wgetrc",
  ".tflint.hcl",
  "main.tf",
  "gen.go",
];

describe("hostile-output-erb-and-lotp-configs: -o refuses files whose program runs code from them", () => {
  it("each ERB-rendered file and each LOTP config file is refused by name, wherever it is", () => {
    for (const path of [...ERB, ...LOTP]) {
      expect(runByNameOf(`/srv/p/${path}`), path).toBeDefined();
      expect(runByNameOf(`/srv/p/sub/${path}`), path).toBeDefined();
    }
  });

  it("a prompt's own names beside them are not", () => {
    for (const path of [
      "config/prompt.md",
      "config/database.yml.md",
      "docs/rubocop.md",
      ".stylelintrc.md",
      "test_notes.md",
      "env/prompt.properties.md",
      "magefile.md",
      "node_modules/x.md",
      "AGENTS.md",
      "prompt.txt",
    ]) {
      expect(runByNameOf(`/srv/p/${path}`), path).toBeUndefined();
    }
  });

  it.each([...ERB, "Makefile", "package.json"])(
    "render -o %s with an ERB line in AGENTS.md is refused (exit 2), nothing written",
    async (path) => {
      const root = tempDir();
      for (const dir of ["p/.git", "p/config", "home", "agent"]) {
        mkdirSync(join(root, dir), { recursive: true });
      }
      writeFileSync(join(root, "p/AGENTS.md"), '# P\n\n<%= File.write("/tmp/pwned", "x") %>\n');
      const out = await cli(root, join(root, "p"), ["render", "--untrusted", "-o", path]);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toContain("which another program runs or trusts line by line");
      expect(existsSync(join(root, "p", path))).toBe(false);
    },
  );
});
