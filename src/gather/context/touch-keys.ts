/**
 * The keys of a `delivered` set (on-touch loading's record of what a
 * session was given): one place, as the hook's quick answer reads them too.
 */

/** A folder whose context file was given or refused: not looked at again. */
export const contextKey = (realDir: string): string => `context\0${realDir}`;
/** A context file given, by real path: a link to it elsewhere brings nothing. */
export const fileKey = (real: string): string => `file\0${real}`;
/** A glob rule given. */
export const ruleKey = (path: string): string => `rule\0${path}`;
