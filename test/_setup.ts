// Runs before each test file (vitest's setupFiles). The unit tier shares one module graph per
// worker (isolate: false), so an afterEach registered when test/api/_helpers.ts is first
// imported would clean up after the first file's tests only; registered here, it is every
// file's. Its import of _helpers is the shared one, so the list it empties is the list tempDir fills.
import { afterEach } from "vitest";
import { removeTempDirs } from "./api/_helpers.js";

afterEach(() => removeTempDirs());
