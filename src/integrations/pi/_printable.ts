/**
 * Text from outside (a folder name, a command-line value) as one printable
 * line for pi's interface or a terminal: the escaping every path in the
 * prompt gets (C0 and C1 controls, DEL, Unicode line breaks and bidi controls
 * become `\uXXXX`), so no escape sequence or forged line gets through.
 */
export { jsonOneLine as jsonPrintable, oneLine as printable } from "../../_prompt-text.js";
