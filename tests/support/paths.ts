import { join } from 'node:path';

export const tmpDir = join(process.cwd(), '.tmp');

export function adminUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  return url;
}
