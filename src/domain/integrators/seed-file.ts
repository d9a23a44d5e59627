import { readFileSync } from 'node:fs';
import type { DbOrTx } from '../../db/client.ts';
import { parseWith } from '../../schemas/parse.ts';
import { type SeedIntegrator, seedIntegratorSchema, seedSchema } from '../../schemas/provisioning.ts';
import { SeedUserError } from '../accounts/seed.ts';

/** A seed that cannot be applied; its message lists every mistake found, each under its path in the file. */
export class ProvisioningError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProvisioningError';
  }
}

/** The mistakes of one seed, each `path: what is wrong`, so one start lists them all. */
export class SeedProblems {
  readonly list: string[] = [];

  add(at: string, message: string): void {
    this.list.push(`${at}: ${message}`);
  }

  /**
   * One step of the apply, in a savepoint: a mistake of the seed's is noted under `at`, what the
   * step wrote is undone, and the apply goes on to find the next one. Anything else is thrown.
   */
  async step<T>(tx: DbOrTx, at: string, run: (tx: DbOrTx) => Promise<T>): Promise<T | undefined> {
    try {
      return await (tx.transaction as (f: (sp: DbOrTx) => Promise<T>) => Promise<T>)((sp) => run(sp));
    } catch (error) {
      if (!(error instanceof ProvisioningError || error instanceof SeedUserError)) throw error;
      this.add(at, error.message);
      return undefined;
    }
  }

  /** Throws, listing every mistake, when there is any. */
  throwIfAny(path: string, outcome: string): void {
    if (this.list.length === 0) return;
    const count = this.list.length === 1 ? '1 mistake' : `${this.list.length} mistakes`;
    throw new ProvisioningError(`PAYLINK_SEED ${path} is invalid (${count}; ${outcome}):\n${this.list.map((line) => `  ${line}`).join('\n')}`);
  }
}

/**
 * The seed file, checked against its schema. Every integrator entry that is valid on its own is
 * returned with its index, so the apply can still look for the mistakes only the database shows
 * (a slug another integrator has, a link the acquirer cannot take) in the same start.
 */
export function readSeed(path: string): { entries: Array<{ index: number; integrator: SeedIntegrator }>; problems: SeedProblems } {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ProvisioningError(`PAYLINK_SEED ${path} cannot be read as JSON: ${(error as Error).message}`);
  }
  const problems = new SeedProblems();
  const parsed = parseWith(seedSchema, json);
  if (parsed.ok) return { entries: parsed.value.integrators.map((integrator, index) => ({ index, integrator })), problems };
  for (const [at, messages] of Object.entries(parsed.messages)) problems.add(at, messages.join('; '));
  const raw = (json as { integrators?: unknown } | null)?.integrators;
  const entries: Array<{ index: number; integrator: SeedIntegrator }> = [];
  if (Array.isArray(raw))
    raw.forEach((entry, index) => {
      const one = seedIntegratorSchema.safeParse(entry);
      if (one.success) entries.push({ index, integrator: one.data });
    });
  return { entries, problems };
}
