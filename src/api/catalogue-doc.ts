import { catalogue, type StatusEntry } from './catalogue.ts';

/** docs/status-codes.md, rendered from the catalogue (a test fails when the file is stale). */
export function renderStatusCodesDoc(): string {
  const rows = Object.entries(catalogue as Record<string, StatusEntry>).map(
    ([code, e]) => `| \`${code}\` | ${e.http} | ${e.description}${e.spec ? ' (interface)' : ''} | ${e.when} |`,
  );
  return [
    '# Status codes',
    '',
    '<!-- Generated from src/status-codes.ts by `npm run docs:status-codes`. Do not edit by hand. -->',
    '',
    'Every API response carries `data.status_code` and `data.status_description`. Decide success from',
    '`data.status_code` as well as the HTTP status: business failures (a declined refund, say) arrive with',
    'HTTP 200 and an `ER.` code ([interface](interface.md) §7, rule 3). Codes marked (interface) are the',
    "interface's own; the rest follow its `OK.xx.yy` / `ER.xx.yy` pattern. HTTP is the default status for the code;",
    '`ER.02.30` is 422 for invalid fields and 404 when a referenced object does not exist (interface §7).',
    '',
    '| status_code | HTTP | description | when |',
    '|---|---:|---|---|',
    ...rows,
    '',
  ].join('\n');
}
