/**
 * A Vite plugin for the server build: Astro 7.3 hashes the same page-head scripts and styles for
 * the CSP header on every request (`createResult` in astro/dist/core/fetch/fetch-state.js: one
 * WebCrypto SHA-256 each, ~8 % of a payment page view's CPU once the page itself is kept rendered).
 * Their content never changes in a build, so each digest is computed once and reused. Astro is
 * pinned (package.json); if a new version no longer has that code, the build stops here instead of
 * silently losing the memo — drop this plugin or adapt it then.
 */
const TARGET = /astro\/dist\/core\/fetch\/fetch-state\.js$/;
const CALL = /await generateCspDigest\(/g;
const MEMO = `
const paylinkCspDigests = new Map();
function paylinkMemoCspDigest(data, algorithm) {
  const key = algorithm + "\\0" + data;
  let digest = paylinkCspDigests.get(key);
  if (!digest) {
    digest = generateCspDigest(data, algorithm);
    if (paylinkCspDigests.size < 256) paylinkCspDigests.set(key, digest);
  }
  return digest;
}
`;

export function cspDigestMemo() {
  return {
    name: 'paylink-csp-digest-memo',
    transform(code, id) {
      if (!TARGET.test(id.split('?')[0])) return undefined;
      const calls = code.match(CALL)?.length ?? 0;
      if (calls !== 2) this.error(`paylink-csp-digest-memo: expected 2 generateCspDigest calls in ${id}, found ${calls}`);
      return { code: code.replace(CALL, 'await paylinkMemoCspDigest(') + MEMO, map: null };
    },
  };
}
