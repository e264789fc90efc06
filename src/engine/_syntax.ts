// The one walk over a Handlebars syntax tree that the engine's passes share:
// a program's weight (`_weights.ts`), and the rewrite of partial calls and
// the refusals made on the way (`engine.ts`).

/** A syntax node as a walk sees it: an object that is not an array. */
export type SyntaxNode = Record<string, unknown>;

/** A node's source location: it holds no node, so no walk goes into it. */
const LOCATION: ReadonlySet<string> = new Set(["loc"]);

/**
 * Calls `visit` on every node in `roots` and below them, arrays spread,
 * with a stack of its own (a deep tree cannot overflow the call stack): a
 * node's last child is visited first. `visit` returns false to leave that
 * node's children out; the values under `skip`'s keys are never gone into
 * (a location, by default). A node `visit` changes is gone into as it is
 * after the change.
 */
export function walkSyntax(
  roots: readonly unknown[],
  visit: (node: SyntaxNode) => boolean,
  skip: ReadonlySet<string> = LOCATION,
): void {
  const stack: unknown[] = [...roots];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      for (const child of node) stack.push(child);
      continue;
    }
    if (!visit(node as SyntaxNode)) continue;
    for (const key of Object.keys(node)) {
      if (skip.has(key)) continue;
      const value = (node as SyntaxNode)[key];
      if (value !== null && typeof value === "object") stack.push(value);
    }
  }
}
