// What more than one group of the registry uses.
import { resolveUserPath } from "../../_paths.js";
import type { Check } from "../checks.js";
import type { FlagContext } from "../spec.js";

/** A time option's check: it is checked more closely by parseNow. */
export const isTime: Check = () => undefined;

/** A path given on the command line: `~` is the home folder, a relative path is from the shell's folder. */
export const userPath = (raw: string, at: FlagContext) => resolveUserPath(raw, at.cwd, at.home);
