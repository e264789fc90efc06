import { createRequire } from "node:module";

/**
 * `node:crypto`, loaded on first use. Loading it costs a start several
 * milliseconds (it pulls in streams and some twenty modules of its own), and a
 * render never needs it: only writing a file (a temporary name), `eject` and
 * the author tools (a builtin's hash) do.
 */
let loaded: typeof import("node:crypto") | undefined;
function crypto(): typeof import("node:crypto") {
  loaded ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return loaded;
}

/** `bytes` random bytes as hex digits: a name no other process picks. */
export function randomHex(bytes: number): string {
  return crypto().randomBytes(bytes).toString("hex");
}

/** The SHA-256 digest of `text` (UTF-8) in hex digits. */
export function sha256Hex(text: string): string {
  return crypto().createHash("sha256").update(text, "utf8").digest("hex");
}
