// `npm run -s sign-schedule -- <schedule.json> [--card <reference>] [--seed <seed.json> [--integrator <name>]]`
//
// Prints a schedule `payload`: the JWT (HS256) whose `data` claim is the file's schedule data,
// signed with the integrator's JWT secret, so `JWT=$(npm run -s sign-schedule -- …)` works in a shell.
// The secret comes from PAYLINK_JWT_SECRET, else the seed file's integrator (--seed, the first one or
// --integrator <name>), else data/demo-credentials.json (what `npm start` writes on a fresh data directory).
// --card replaces data.credit_card.reference (the card registration you just made).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';

const usage = 'usage: npm run -s sign-schedule -- <schedule.json> [--card <reference>] [--seed <seed.json> [--integrator <name>]] [--expires <minutes>]';

function fail(message) {
  console.error(`sign-schedule: ${message}\n${usage}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { card: { type: 'string' }, seed: { type: 'string' }, integrator: { type: 'string' }, expires: { type: 'string', default: '15' } },
  });
} catch (error) {
  fail(error.message);
}
const { values, positionals } = parsed;
if (positionals.length !== 1) fail('name one schedule data file, e.g. examples/schedule-monthly.json');

const readJson = (path, what) => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    fail(`cannot read ${what} ${path}: ${error.message}`);
  }
};

function secret() {
  if (process.env.PAYLINK_JWT_SECRET) return process.env.PAYLINK_JWT_SECRET;
  if (values.seed) {
    const integrators = readJson(values.seed, 'seed file').integrators ?? [];
    const integrator = values.integrator ? integrators.find((i) => i.name === values.integrator) : integrators[0];
    if (!integrator?.secret) fail(`no integrator ${values.integrator ? `named ${values.integrator} ` : ''}with a secret in ${values.seed}`);
    return integrator.secret;
  }
  const credentials = join(process.env.PAYLINK_DATA_DIR ?? 'data', 'demo-credentials.json');
  const secret = readJson(credentials, 'demo credentials').secret;
  if (!secret) fail(`no secret in ${credentials}`);
  return secret;
}

const data = readJson(positionals[0], 'schedule data');
if (values.card) data.credit_card = { ...data.credit_card, reference: values.card };
const minutes = Number(values.expires);
if (!Number.isInteger(minutes) || minutes < 1 || minutes > 1440) fail('--expires must be a whole number of minutes from 1 to 1440');

// A fresh `jti` makes each signature a new schedule; the same JWT sent twice answers with the first reference.
const jwt = await new SignJWT({ data, jti: randomUUID() })
  .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
  .setIssuedAt()
  .setExpirationTime(`${minutes}m`)
  .sign(new TextEncoder().encode(secret()));
process.stdout.write(`${jwt}\n`);
