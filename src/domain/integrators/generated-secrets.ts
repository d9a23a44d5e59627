/**
 * Secrets paylink generates for a seed that leaves them out (an integrator's webhook secret) go to
 * one documented place: the file PAYLINK_GENERATED_SECRETS_FILE names (0600, earlier runs' entries
 * kept), or, with no such file, the start banner prints them once. Never a data directory: on
 * PostgreSQL every process has its own, and the one that applied the seed first would keep them.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { ProvisioningError } from './seed-file.ts';

export interface GeneratedSecrets {
  /** Integrator contact e-mail → its generated `whsec_…`. */
  webhookSecrets: Record<string, string>;
  /** The file they were written to; absent: they are to be printed once. */
  path?: string;
}

/** Adds this run's generated webhook secrets to the operator's file (earlier runs' entries kept), or leaves them to be printed. */
export function keepGeneratedSecrets(path: string | undefined, webhookSecrets: Record<string, string>): GeneratedSecrets {
  if (!path) return { webhookSecrets };
  let previous: { webhook_secrets?: Record<string, string> } = {};
  try {
    previous = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new ProvisioningError(`PAYLINK_GENERATED_SECRETS_FILE ${path} cannot be read as JSON; move it aside and start again`);
  }
  try {
    writeSecretFile(path, { ...previous, webhook_secrets: { ...previous.webhook_secrets, ...webhookSecrets } });
  } catch (error) {
    throw new ProvisioningError(
      `PAYLINK_GENERATED_SECRETS_FILE ${path} cannot be written (${(error as NodeJS.ErrnoException).code ?? 'error'}); nothing was applied`,
    );
  }
  return { webhookSecrets, path };
}

/** The start banner's lines for them: where they went, or (no file named) the secrets themselves as one JSON line, once. */
export function generatedSecretsBanner(generated: GeneratedSecrets): string[] {
  const count = Object.keys(generated.webhookSecrets).length;
  const what = `${count} webhook secret${count === 1 ? '' : 's'}`;
  if (generated.path) return [`  generated:    ${what} written to ${generated.path} (PAYLINK_GENERATED_SECRETS_FILE)`];
  return [
    `  generated:    ${what}, shown once here (set PAYLINK_GENERATED_SECRETS_FILE to have them written to a 0600 file instead):`,
    `  ${JSON.stringify({ webhook_secrets: generated.webhookSecrets })}`,
  ];
}

/** A JSON file only its owner reads (0600 even when it existed with wider rights). */
export function writeSecretFile(path: string, value: unknown) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}
