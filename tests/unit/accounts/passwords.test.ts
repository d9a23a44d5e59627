import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { argon2Threads } from '../../../src/domain/accounts/argon2-threads.ts';
import { isArgon2idHash, PASSWORD_HASHES_AT_ONCE, PasswordHasher } from '../../../src/domain/accounts/passwords.ts';

/** Made by hash-wasm's argon2id (the hasher before this one) for 'correct horse battery'. */
const HASH_WASM_HASH = '$argon2id$v=19$m=19456,t=2,p=1$Niw9Wg9nWrt1RfGl86oqog$qsHM7YUTLgfEp2BD0DaNWxMvvipkuvfYMB4Yhna/CTs';

describe('accounts › password hashing', () => {
  it('hashes with Argon2id (OWASP parameters, random salt) and verifies only the right password', async () => {
    const hasher = new PasswordHasher(8);
    const a = await hasher.hash('blue harbour lantern 7');
    const b = await hasher.hash('blue harbour lantern 7');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(isArgon2idHash(a)).toBe(true);
    expect(await hasher.verify('blue harbour lantern 7', a)).toBe(true);
    expect(await hasher.verify('blue harbour lantern 8', a)).toBe(false);
    expect(await hasher.verify('anything', 'not a hash')).toBe(false);
  });

  it('verifies the hashes stored before (made by hash-wasm, same PHC format and parameters)', async () => {
    const hasher = new PasswordHasher(8);
    expect(await hasher.verify('correct horse battery', HASH_WASM_HASH)).toBe(true);
    expect(await hasher.verify('correct horse batterY', HASH_WASM_HASH)).toBe(false);
  });

  it('never holds the event loop: eight checks at once leave it answering within 40 ms', async () => {
    const hasher = new PasswordHasher(16);
    const hash = await hasher.hash('blue harbour lantern 7');
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    await Promise.all(Array.from({ length: 8 }, () => hasher.verify('wrong password here', hash)));
    delay.disable();
    // Argon2 on the main thread (hash-wasm) held it ~100 ms per check.
    expect(delay.max / 1e6).toBeLessThan(40);
  });

  it('refuses at once, with ER.01.04 and a wait, a check beyond the queue; the queued ones still run', async () => {
    const hasher = new PasswordHasher(2, 1);
    const hash = await hasher.hash('blue harbour lantern 7');
    const running = hasher.verify('blue harbour lantern 7', hash);
    const queued = [hasher.verify('wrong password here', hash), hasher.verify('blue harbour lantern 7', hash)];
    const refused = await hasher.verify('blue harbour lantern 7', hash).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'ER.01.04', retryAfterSeconds: 2 });
    await expect(hasher.hash('another password here')).rejects.toMatchObject({ code: 'ER.01.04' });
    // A request can ask before it spends anything else (a database query) on a check that would be refused.
    expect(() => hasher.assertRoom()).toThrow(expect.objectContaining({ code: 'ER.01.04' }));
    expect(hasher.full).toBe(true);
    expect(await Promise.all([running, ...queued])).toEqual([true, false, true]);
    // Once the queue drained, checks are taken again.
    expect(() => hasher.assertRoom()).not.toThrow();
    expect(hasher.full).toBe(false);
    expect(await hasher.verify('blue harbour lantern 7', hash)).toBe(true);
  });

  it('holds a caller while the queue is full and wakes the first held, one per place that frees', async () => {
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const hasher = new PasswordHasher(1, 1, { hash: async () => 'x', verify: async () => gate.then(() => false) });
    expect(await hasher.waitForRoom(10)).toBe(true);
    const checks = [hasher.verify('a', 'x'), hasher.verify('b', 'x')];
    expect(hasher.full).toBe(true);
    const woken: string[] = [];
    const first = hasher.waitForRoom(5_000).then((room) => woken.push(`first ${room}`));
    const second = hasher.waitForRoom(200).then((room) => woken.push(`second ${room}`));
    expect(hasher.heldCount).toBe(2);
    // One place frees when the queued check starts: only the first held takes it; the second times out.
    letGo();
    await Promise.all([first, second, ...checks]);
    expect(woken).toEqual(['first true', 'second false']);
    expect(hasher.heldCount).toBe(0);
  });

  it('refuses to hold more than four callers per place in the queue, and lets a caller that went away go', async () => {
    const hasher = new PasswordHasher(1, 1, { hash: async () => 'x', verify: () => new Promise<boolean>(() => undefined) });
    void hasher.verify('a', 'x');
    void hasher.verify('b', 'x');
    const gone = new AbortController();
    const held = [hasher.waitForRoom(60_000, gone.signal), ...Array.from({ length: 3 }, () => hasher.waitForRoom(50))];
    expect(hasher.heldCount).toBe(4);
    expect(await hasher.waitForRoom(60_000)).toBe(false);
    gone.abort();
    expect(await held[0]).toBe(false);
    expect(hasher.heldCount).toBe(3);
    expect(await Promise.all(held.slice(1))).toEqual([false, false, false]);
    expect(hasher.heldCount).toBe(0);
  });

  it('a check against nothing (unknown address, locked account) runs one real verification and is always false', async () => {
    // Argon2's work is set by the hash it checks against: the dummy hash has a real one's parameters,
    // so a check against nothing costs what a wrong password costs (counted here, not timed).
    const real = argon2Threads(1);
    const checked: string[] = [];
    const hasher = new PasswordHasher(8, 1, {
      hash: real.hash,
      verify: (hash, password, options) => {
        checked.push(String(hash));
        return real.verify(hash, password, options);
      },
    });
    const hash = await hasher.hash('blue harbour lantern 7');
    expect(await hasher.verify('wrong password here', hash)).toBe(false);
    expect(await hasher.verifyNothing('wrong password here')).toBe(false);
    expect(await hasher.verifyNothing('blue harbour lantern 7')).toBe(false);
    expect(hasher.verifications).toBe(3);
    expect(checked).toHaveLength(3);
    const parameters = (h: string) => h.split('$').slice(1, 4).join('$');
    expect(parameters(checked[1]!)).toBe(parameters(hash));
    expect(parameters(checked[2]!)).toBe(parameters(hash));
    expect(checked[1]).not.toBe(hash);
  });

  it('runs at most half of libuv’s pool of hashes at once (compression, files and DNS use the rest), and at least one', () => {
    expect(PASSWORD_HASHES_AT_ONCE).toBeGreaterThanOrEqual(1);
    expect(PASSWORD_HASHES_AT_ONCE).toBeLessThanOrEqual(2);
  });
});
