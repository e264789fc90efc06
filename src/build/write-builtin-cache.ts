// Build step: `node dist/src/build/write-builtin-cache.js` (run by `npm run build`).
import { fileURLToPath } from "node:url";
import { writeBuiltinCache } from "../locate/builtin-cache.js";
import { builtinPromptsDir } from "../locate/layers.js";

const out = fileURLToPath(new URL("../../builtin-frontmatter.json", import.meta.url));
const count = writeBuiltinCache(builtinPromptsDir(), out);
process.stdout.write(`builtin frontmatter cache: ${count} files -> ${out}\n`);
