// Run after a change to prompts/: `npm run build && node dist/src/build/write-builtin-element-names.js`.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { builtinElementNames, builtinElementNamesModule } from "./builtin-element-names.js";

const out = fileURLToPath(new URL("../../../src/_builtin-element-names.ts", import.meta.url));
const names = await builtinElementNames();
writeFileSync(out, builtinElementNamesModule(names));
process.stdout.write(`builtin element names: ${names.length} -> ${out}\n`);
