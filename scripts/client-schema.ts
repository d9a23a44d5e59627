import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from '../src/api/openapi/document.ts';

/** clients/typescript/schema.d.ts: the TypeScript types of the OpenAPI document (openapi-typescript). */
export const CLIENT_SCHEMA_PATH = 'clients/typescript/schema.d.ts';

export async function generateClientSchema(): Promise<string> {
  const ast = await openapiTS(structuredClone(openApiDocument()) as unknown as Parameters<typeof openapiTS>[0]);
  return `/**\n * Generated from paylink's OpenAPI document by \`npm run client:generate\` (openapi-typescript).\n * Do not edit by hand: a test fails when this file is stale.\n */\n\n${astToString(ast)}`;
}
