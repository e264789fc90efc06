import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type LoadRulesOptions, traceRules } from "../../../src/gather/rules/index.js";
import { copyScenario } from "../../api/_helpers.js";

/**
 * A temp copy of `test/fixtures/rules/<name>` with a `.git` folder at `gitRoot`
 * (git cannot hold one), so the project root is known and the repository's
 * own folders are never searched.
 */
export function rulesFixture(name: string, gitRoot = "."): string {
  const dir = copyScenario("rules", name);
  mkdirSync(join(dir, gitRoot, ".git"), { recursive: true });
  return dir;
}

/** traceRules with a home and agent dir of the fixture's (missing unless it has them). */
export function trace(dir: string, cwd = ".", more: Partial<LoadRulesOptions> = {}) {
  return traceRules({
    cwd: join(dir, cwd),
    home: join(dir, "home"),
    agentDir: join(dir, "agent"),
    ...more,
  });
}
