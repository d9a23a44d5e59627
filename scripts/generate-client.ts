// `npm run client:generate`: rewrites clients/typescript/schema.d.ts from the OpenAPI document.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_SCHEMA_PATH, generateClientSchema } from './client-schema.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
writeFileSync(join(root, CLIENT_SCHEMA_PATH), await generateClientSchema());
console.log(`wrote ${CLIENT_SCHEMA_PATH}`);
