/**
 * Build step (`npm run build`): compile the compiler route-surface loads once (the parser cut
 * from it, scripts/compiler.ts), parse and extract a server module with it
 * (scripts/warm-up.ts), and write the code V8 compiled to dist/typescript.code-cache, so a
 * run that parses loads the compiler from it (src/extract/code-cache.ts). Without this
 * file, or with one made for another Node or another compiler, runs compile it as usual.
 */
import { CODE_CACHE_FILE, typeScriptFile } from '../src/extract/compiler.js';
import { writeCodeCache } from '../src/extract/code-cache.js';
import { warmUp } from './warm-up.js';

const bytes = writeCodeCache(typeScriptFile(), CODE_CACHE_FILE, warmUp);
console.log(`${CODE_CACHE_FILE}: ${(bytes / 2 ** 20).toFixed(1)} MiB of compiled code`);
