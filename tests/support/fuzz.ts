import fc from 'fast-check';

/**
 * Generators of hostile request bodies for the property tests (tests/integration/api/fuzz.test.ts):
 * mutations of a valid body (a field removed, replaced by a value of any type, an unknown or
 * prototype-named key added), wrong types at the top, odd strings and numbers, deep nesting, and
 * raw text that is not quite JSON.
 */

/** Keys that are properties of every object, or special to some code: each must stay a plain key. */
const protoKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf', 'then');

const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }), // any UTF-16 code units: NUL, lone surrogates, controls
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff',
    '\u202e',
    '\ufeff',
    'null',
    'true',
    'NaN',
    '1e309',
    '-0',
    '0x1F',
    '1_000',
    '１２３',
    '12.345678901234567890',
    '-250.00',
    '99999999999999999999999.99',
    '__proto__',
    'not a url',
    'http://a:99999/',
    'http://256.256.256.256/',
    'http://[fe80::1%25eth0]/',
    'http://169.254.169.254/',
    'http://localhost/',
    'javascript:alert(1)',
    '<script>alert(1)</script>',
    "' or 1=1 --",
    '{{7*7}}',
    '%00',
    '../../etc/passwd',
    'x'.repeat(3000),
    '😀'.repeat(500),
  ),
);

const oddNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, -1, 0.1, 0.005, 1e21, 1e308, -1e308, 5e-324, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER),
);

/** A value nested up to `max` levels deep in arrays and objects. */
const deeplyNested = (max: number) =>
  fc.integer({ min: 10, max }).map((depth) => {
    let value: unknown = 'deep';
    for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
    return value;
  });

const anyValueNested = (maxDepth: number): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: oddString },
    { weight: 2, arbitrary: oddNumber },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: deeplyNested(maxDepth) },
    { weight: 1, arbitrary: fc.array(oddString, { maxLength: 5 }) },
  );
const anyValue = anyValueNested(4000);
// Inside a signed payload (16 KiB at most) nesting is bounded; and fast-check prints a failing value with recursion.
const anyClaimValue = anyValueNested(300);

type Json = Record<string, unknown>;
/** Sets an own property, even `__proto__` (an assignment would change the prototype instead). */
const setOwn = (target: Json, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return [prefix, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))];
}

const clone = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

type Mutation = { kind: 'set'; at: number; key?: string; value: unknown } | { kind: 'delete'; at: number };

function applyMutation(body: Json, mutation: Mutation): Json {
  const all = paths(body);
  const path = all[mutation.at % all.length]!;
  if (path.length === 0) {
    if (mutation.kind === 'set' && mutation.key !== undefined) setOwn(body, mutation.key, mutation.value);
    return body;
  }
  let parent = body;
  for (const key of path.slice(0, -1)) parent = parent[key] as Json;
  const last = path.at(-1)!;
  if (mutation.kind === 'delete') delete parent[last];
  else if (mutation.key !== undefined && parent[last] !== null && typeof parent[last] === 'object' && !Array.isArray(parent[last]))
    setOwn(parent[last] as Json, mutation.key, mutation.value);
  else setOwn(parent, last, mutation.value);
  return body;
}

const mutationOf = (value: fc.Arbitrary<unknown>): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value }),
    fc.record({ kind: fc.constant('set' as const), at: fc.nat(), key: fc.oneof(protoKey, oddString), value }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  );
const mutation = mutationOf(anyValue);

/** A request body: JSON text, and the Content-Type it is sent with (undefined: none). */
export interface FuzzBody {
  text: string;
  contentType?: string;
}

const rawTexts = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    '[]',
    '"text"',
    '42',
    '{',
    '{"a":1,}',
    '{"a":1e99999}',
    '{"amount":123456789012345678901234567890}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '\ufeff{}',
    '{"a":1}{"b":2}',
    '{"a":1,"a":2}',
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.integer({ min: 1, max: 3000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
);

/**
 * Bodies for an endpoint whose valid body is `valid()`: mostly mutations of it (so most of them
 * get past the envelope and into the endpoint's own rules), some of it whole, some wrong at the
 * top, some raw text. `contentTypes` are the types to try besides application/json.
 */
export function hostileBodies(valid: () => Json, opts: { otherContentTypes?: boolean } = {}): fc.Arbitrary<FuzzBody> {
  const json = (value: unknown): FuzzBody => ({ text: JSON.stringify(value) ?? 'null', contentType: 'application/json' });
  const mutated = fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ops) => json(ops.reduce(applyMutation, clone(valid()) as Json)));
  const arbitraries: fc.WeightedArbitrary<FuzzBody>[] = [
    { weight: 14, arbitrary: mutated },
    { weight: 1, arbitrary: fc.constant(null).map(() => json(valid())) },
    { weight: 2, arbitrary: anyValue.map(json) },
    { weight: 2, arbitrary: rawTexts.map((text) => ({ text, contentType: 'application/json' })) },
  ];
  if (opts.otherContentTypes) {
    const type = fc.constantFrom(
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=utf-8',
      'application/vnd.api+json',
      'multipart/form-data',
    );
    arbitraries.push({ weight: 1, arbitrary: fc.tuple(mutated, type).map(([body, contentType]) => ({ text: body.text, contentType })) });
  }
  return fc.oneof(...arbitraries);
}

/** Mutations of a plain object (e.g. a schedule's signed `data` claim), as objects. */
export function mutatedObjects(valid: () => Json): fc.Arbitrary<unknown> {
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc.array(mutationOf(anyClaimValue), { minLength: 1, maxLength: 3 }).map((ops) => ops.reduce(applyMutation, clone(valid()) as Json)),
    },
    { weight: 1, arbitrary: anyClaimValue },
  );
}

/**
 * Request methods no route takes, as a client on a raw socket can write them: the ones a web
 * Request refuses (TRACE, TRACK, CONNECT), WebDAV's, lower or mixed case, and made-up tokens.
 */
export const oddMethods: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('TRACE', 'TRACK', 'CONNECT', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'SEARCH', 'PURGE', 'get', 'Post', 'trace'),
  fc.stringMatching(/^[A-Za-z]{1,12}$/).filter((m) => !['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].includes(m)),
);

/** Bodies past the size limits paylink keeps (64 KiB JSON, 256 KiB webhooks, 1 MiB for everything), a few bytes either side. */
const LIMITS = [64 * 1024, 256 * 1024, 1024 * 1024];

/**
 * A body sent chunked: a hostile body padded with whitespace (still the same JSON) to a size
 * near one of the limits or anywhere up to 2 MiB, cut into chunks of any size (at most 512 chunks).
 */
export function chunkedBodies(valid: () => Json): fc.Arbitrary<{ body: FuzzBody; chunkSize: number }> {
  const size = fc.oneof(
    fc.integer({ min: 0, max: 4096 }),
    fc.tuple(fc.constantFrom(...LIMITS), fc.integer({ min: -16, max: 16 })).map(([limit, delta]) => limit + delta),
    fc.integer({ min: 0, max: 2 * 1024 * 1024 }),
  );
  return fc.tuple(hostileBodies(valid), size, fc.integer({ min: 1, max: 64 * 1024 })).map(([body, wanted, chunk]) => {
    const text = body.text + ' '.repeat(Math.max(0, wanted - Buffer.byteLength(body.text)));
    return { body: { ...body, text }, chunkSize: Math.max(chunk, Math.ceil(Buffer.byteLength(text) / 512)) };
  });
}

/** How many generated bodies per endpoint: 1,000 in `npm test`, more with `npm run fuzz`. */
export const FUZZ_RUNS = Number(process.env.PAYLINK_FUZZ_RUNS ?? 1000);
