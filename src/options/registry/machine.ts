import type { Machine } from "../../gather/environment/index.js";
import { isPath, isPlainObject, isRecordOf, isString } from "../checks.js";
import { option, valueFlag } from "../spec.js";
import { isTime } from "./_common.js";

/** Options about the machine the render runs on: clock, environment variables, home, the machine itself; entries of `OPTIONS`, in its order. */
export const MACHINE_OPTIONS = {
  /** The clock: a Date, epoch milliseconds, or an ISO 8601 date or date-time (UTC unless it has an offset). Default: now. */
  now: option<Date | string | number>()({
    doc: "The clock: a Date, epoch milliseconds, or an ISO 8601 date or date-time (UTC unless it has an offset).",
    type: "Date, epoch ms or ISO 8601",
    default: "now",
    check: isTime,
    scenario: "now",
    // Checked by the library's parseNow, which names the flag.
    flag: valueFlag(
      [["--now <iso>", "pin the clock (ISO 8601, UTC when no offset is given)"]],
      isString,
    ),
  }),
  /** Environment variables. Default: `process.env`. */
  env: option<Readonly<Record<string, string | undefined>>>()({
    doc: "Environment variables.",
    type: "record of strings",
    default: "`process.env`",
    check: isRecordOf((x) => (x === undefined ? undefined : isString(x)), "strings"),
    session: "fixed",
    scenario: "env",
  }),
  /** Home folder. Default: `os.homedir()`. */
  home: option<string>()({
    doc: "Home folder.",
    type: "path",
    default: "`os.homedir()`",
    check: isPath,
    session: "fixed",
    scenario: "home",
  }),
  /**
   * The machine the environment section describes. Default: this one (OS
   * release, /proc/cpuinfo, a GPU probe of system binaries only, cached in `$XDG_CACHE_HOME/sysprompt/` (else `~/.cache/sysprompt/`; `<agentDir>/cache/` when agentDir or `$SYSPROMPT_AGENT_DIR` is given)). When
   * given, it is the whole machine: facts it leaves out are not stated, and
   * without `readFile` / `runProbe` no file is read and no process started.
   */
  machine: option<Machine>()({
    doc: "The machine the environment section describes; when given, it is the whole machine.",
    type: "{ platform, arch, … }",
    default: "this one",
    check: (v) =>
      isPlainObject(v) && typeof v.platform === "string" && typeof v.arch === "string"
        ? undefined
        : 'an object { platform, arch } of strings, such as { platform: "linux", arch: "x64" }',
    session: "fixed",
    scenario: "machine",
  }),
};
