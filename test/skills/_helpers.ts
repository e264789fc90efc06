import { cpSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Skill, SkillSource } from "../../src/skills/index.js";
import { tempDir as sharedTempDir } from "../api/_helpers.js";

export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "../fixtures/skills");

/** A fresh temp folder (real path, so expected paths match), removed after the test. */
export function tempDir(): string {
  return sharedTempDir("sysprompt-skills-");
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
