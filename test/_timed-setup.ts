// Runs before each file of the unit-timed project (vitest.config.ts), after test/_setup.ts.
// Those files share one module graph per worker and time their work against a bound: a full
// collection before each file's tests leaves them the heap a fresh worker would have, so the
// garbage of the files before is not collected inside a timed part. The project's workers run
// with --expose-gc; elsewhere gc is missing and this does nothing.
import { beforeAll } from "vitest";

beforeAll(() => (globalThis as { gc?: () => void }).gc?.());
