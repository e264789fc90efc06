import { cpSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import type { Skill, SkillSource } from "../../src/skills/index.js";

export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "../fixtures/skills");

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp folder (real path, so expected paths match), removed after the test. */
export function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sysprompt-skills-")));
  made.push(dir);
  return dir;
}

/** A temp copy of a fixture scenario, for tests that add what git cannot hold (`.git`, FIFOs, links). */
export function copyFixture(name: string): string {
  const dir = tempDir();
  cpSync(join(FIXTURES, name), dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

/** The skill a valid file at `filePath` should give. */
export function skillAt(
  filePath: string,
  name: string,
  description: string,
  source: SkillSource,
  disableModelInvocation = false,
): Skill {
  return {
    name,
    description,
    filePath,
    baseDir: dirname(filePath),
    disableModelInvocation,
    source,
  };
}
