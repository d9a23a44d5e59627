// Writes the PGlite template (the initialised data directory a first start unpacks) to the path
// given. Run by scripts/build.mjs in a process of its own.
import { writePgliteTemplate } from '../src/db/pglite.ts';

const path = process.argv[2];
if (!path) throw new Error('usage: node scripts/pglite-template.ts <output .tar.gz>');
await writePgliteTemplate(path);
