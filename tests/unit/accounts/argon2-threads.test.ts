import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { verify } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { argon2Threads } from '../../../src/domain/accounts/argon2-threads.ts';
import { ARGON2_PARAMETERS, PasswordHasher } from '../../../src/domain/accounts/passwords.ts';

/** The nice value of each thread of this process (Linux: /proc/self/task/<tid>/stat, field 19). */
const threadNiceValues = () =>
  readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });

describe('passwords › Argon2 threads', () => {
  it('hash in threads of the lowest priority (nice 19), so a sign-in storm yields the CPU to payments', async () => {
    const hasher = new PasswordHasher(8);
    const stored = await hasher.hash('correct horse battery staple');
    expect(threadNiceValues()).toContain(19);
    // The process's own thread keeps its priority.
    expect(threadNiceValues()[0]).toBe(0);
    expect(await hasher.verify('correct horse battery staple', stored)).toBe(true);
    expect(await hasher.verify('wrong horse battery staple', stored)).toBe(false);
  });

  it('make the same PHC strings as Argon2 on the libuv pool, with the salt given', async () => {
    const threads = argon2Threads(1);
    const salt = randomBytes(16);
    const stored = await threads.hash('a passphrase of some length', { ...ARGON2_PARAMETERS, algorithm: 2, salt });
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(stored).toContain(salt.toString('base64').replace(/=+$/, ''));
    expect(await verify(stored, 'a passphrase of some length')).toBe(true);
  });

  it('answer a malformed hash with an error the hasher reads as no match', async () => {
    const hasher = new PasswordHasher(8);
    expect(await hasher.verify('anything', '$argon2id$v=19$broken')).toBe(false);
  });
});
