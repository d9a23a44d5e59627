// Starts the built paylink for the end-to-end suite: a fresh data directory, the fixture seed,
// and on PAYLINK_E2E_DB=postgres a fresh PostgreSQL database.
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'paylink-e2e-'));
process.env.PAYLINK_DATA_DIR = dataDir;
// The fixture's cards expire four years from today's clock (as tests/support/cards.ts), never on a
// fixed date; the seed is written to the data directory, so its logo paths are made absolute.
const fixtures = join(root, 'tests/e2e/fixtures');
const seed = JSON.parse(readFileSync(join(fixtures, 'seed.json'), 'utf8'));
const expiry = `12/${String((new Date().getUTCFullYear() + 4) % 100).padStart(2, '0')}`;
for (const integrator of seed.integrators ?? []) {
  for (const card of integrator.cards ?? []) card.expiry = expiry;
  for (const link of integrator.links ?? []) if (link.logo && !link.logo.startsWith('data:')) link.logo = join(fixtures, link.logo);
}
// A merchant on PayMongo, against the in-repo fake of PayMongo's API (tests/e2e/paymongo.spec.ts).
const { startFakePaymongo } = await import(join(root, 'tests/support/fakes/paymongo.ts'));
const fake = await startFakePaymongo();
seed.integrators.push({
  name: 'Lakbay Tours',
  email: 'billing@lakbay.example',
  token: 'e2e_token_lakbay_0123456789abcdefghijklmnop',
  secret: 'e2e_secret_lakbay_0123456789abcdefghijklmnop',
  acquirer: { provider: 'paymongo', public_key: fake.publicKey, secret_key: fake.secretKey, webhook_secret: fake.webhookSecret, api_base_url: fake.url },
  links: [
    { slug: 'lakbay-tour', title: 'Island hopping tour', currency: 'PHP', amount: '1200.00' },
    // The customer types the amount; PayMongo's minimum (PHP 20.00) holds (a link under it is refused when made).
    { slug: 'lakbay-tip', title: 'Tip the guide', currency: 'PHP' },
  ],
});
// The same fake account, paid through PayMongo's own (hosted) checkout page.
seed.integrators.push({
  name: 'Lakbay Hosted',
  email: 'billing@lakbay-hosted.example',
  token: 'e2e_token_lakbayhosted_0123456789abcdefghijklmnop',
  secret: 'e2e_secret_lakbayhosted_0123456789abcdefghijklmnop',
  acquirer: {
    provider: 'paymongo',
    public_key: fake.publicKey,
    secret_key: fake.secretKey,
    webhook_secret: fake.webhookSecret,
    api_base_url: fake.url,
    checkout: 'hosted',
  },
  links: [{ slug: 'lakbay-hosted', title: 'Sunset cruise', currency: 'PHP', amount: '800.00' }],
});
// A merchant on Stripe, against the in-repo fake of Stripe's API on the port playwright.config.ts
// chose (tests/e2e/stripe.spec.ts stands in for Stripe.js in the browser and routes it there).
const { startFakeStripe } = await import(join(root, 'tests/support/fakes/stripe.ts'));
const stripe = await startFakeStripe({ port: Number(process.env.PAYLINK_E2E_STRIPE_PORT) || 0 });
seed.integrators.push({
  name: 'Tala Studio',
  email: 'billing@tala.example',
  token: 'e2e_token_tala_0123456789abcdefghijklmnopqr',
  secret: 'e2e_secret_tala_0123456789abcdefghijklmnopq',
  acquirer: {
    provider: 'stripe',
    public_key: stripe.publishableKey,
    secret_key: stripe.secretKey,
    webhook_secret: stripe.webhookSecret,
    api_base_url: stripe.url,
  },
  links: [
    { slug: 'tala-class', title: 'Pottery class', currency: 'USD', amount: '45.00' },
    // The customer types the amount; Stripe's minimum (USD 0.50, src/acquirer/stripe/minimums.ts) holds.
    { slug: 'tala-tip', title: 'Tip the teacher', currency: 'USD' },
  ],
});
process.env.PAYLINK_SEED = join(dataDir, 'seed.json');
writeFileSync(process.env.PAYLINK_SEED, JSON.stringify(seed));
process.env.PAYLINK_ALLOW_PRIVATE_CALLBACKS = '1';
// Every journey pays from 127.0.0.1 against the same few links: the per-address and per-link card
// velocity limits (20 and 300 an hour by default) would refuse the suite's later attempts with
// ER.03.25. Their own tests run in tests/integration; the per-card decline limit stays as it is.
process.env.PAYLINK_LIMIT_CARD_ATTEMPTS_PER_IP ??= '2000/3600';
process.env.PAYLINK_LIMIT_CARD_ATTEMPTS_PER_LINK ??= '2000/3600';
process.env.LOG_LEVEL ??= 'warn';
writeFileSync(join(dataDir, 'e2e.txt'), 'paylink end-to-end run\n');

if (process.env.PAYLINK_E2E_DB === 'postgres') {
  if (!process.env.DATABASE_URL) throw new Error('PAYLINK_E2E_DB=postgres needs DATABASE_URL');
  // Only what a run on this machine made is dropped (tests/e2e/e2e-databases.ts): a marker under
  // the system's temporary directory names each run's database; another host's are never touched.
  const { e2eDatabaseName, finishedRuns, markerFor, serverOf } = await import(join(root, 'tests/e2e/e2e-databases.ts'));
  const name = e2eDatabaseName(`${process.pid}_${randomBytes(4).toString('hex')}`);
  const markers = join(tmpdir(), 'paylink-e2e-databases');
  mkdirSync(markers, { recursive: true, mode: 0o700 });
  const alive = (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return error.code === 'EPERM';
    }
  };
  const known = readdirSync(markers)
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) => {
      try {
        return [{ ...JSON.parse(readFileSync(join(markers, file), 'utf8')), file: join(markers, file) }];
      } catch {
        return [];
      }
    });
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  for (const run of finishedRuns(known, { server: serverOf(process.env.DATABASE_URL), alive })) {
    const dropped = await admin.query(`drop database if exists "${run.database}" with (force)`).then(
      () => true,
      () => false,
    );
    if (dropped) rmSync(run.file, { force: true });
  }
  // The marker first: a run that dies between the two leaves a marker, never an unnamed database.
  writeFileSync(join(markers, `${name}.json`), JSON.stringify(markerFor(name, process.env.DATABASE_URL)));
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
} else {
  delete process.env.DATABASE_URL;
}
// The start banner is also kept where the specs find it (tests/e2e/operator.spec.ts reads the
// operator setup link from it, as a new operator reads it from the terminal).
const bannerFile = join(root, '.tmp', `e2e-banner-${process.env.PORT}.txt`);
mkdirSync(join(root, '.tmp'), { recursive: true });
writeFileSync(bannerFile, '');
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  try {
    appendFileSync(bannerFile, typeof chunk === 'string' ? chunk : Buffer.from(chunk));
  } catch {}
  return write(chunk, ...rest);
};
await import(realpathSync(join(root, 'dist/paylink/server.mjs')));
