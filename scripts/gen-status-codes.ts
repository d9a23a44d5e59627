// Writes docs/status-codes.md from the status-code catalogue.
import { writeFileSync } from 'node:fs';
import { renderStatusCodesDoc } from '../src/api/catalogue-doc.ts';

writeFileSync(new URL('../docs/status-codes.md', import.meta.url), renderStatusCodesDoc());
console.log('docs/status-codes.md written');
