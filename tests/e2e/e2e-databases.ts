import { hostname } from 'node:os';

/**
 * The PostgreSQL databases of e2e runs (tests/e2e/serve.mjs, PAYLINK_E2E_DB=postgres). A run names
 * its database after a run id (pid and random) and leaves a marker on this machine saying it made
 * it; Playwright kills the server at the end, so the database outlives it, and a later run on this
 * machine drops it. Only databases a marker names are ever dropped: a shared PostgreSQL also holds
 * other hosts' runs (whose pids mean nothing here) and other projects' databases.
 */
export interface E2eDatabaseMarker {
  database: string;
  /** The run's process on `host`. */
  pid: number;
  host: string;
  /** The PostgreSQL server (host:port of DATABASE_URL) the database is on. */
  server: string;
}

export const e2eDatabaseName = (runId: string): string => `paylink_e2e_${runId}`;
/** A name e2eDatabaseName gives (pid, random hex): a marker naming anything else is not believed. */
const E2E_DATABASE = /^paylink_e2e_\d+_[0-9a-f]+$/;

/** A PostgreSQL server as markers name it: host and port of the admin connection URL. */
export function serverOf(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname}:${url.port || '5432'}`;
}

export const markerFor = (database: string, databaseUrl: string, pid: number = process.pid): E2eDatabaseMarker => ({
  database,
  pid,
  host: hostname(),
  server: serverOf(databaseUrl),
});

/**
 * Which runs' databases a starting run drops: those a marker says a run on this host made on
 * `server`, whose run is over. The choice is made from markers only: a database no marker names is
 * never chosen, whatever its name says (another host's `paylink_e2e_<pid>_…`, whose pid means
 * nothing here), and a run still going (its pid alive) keeps its database.
 */
export function finishedRuns<M extends E2eDatabaseMarker>(
  markers: readonly M[],
  opts: { server: string; host?: string; alive: (pid: number) => boolean },
): M[] {
  const host = opts.host ?? hostname();
  return markers.filter((m) => E2E_DATABASE.test(m.database) && m.host === host && m.server === opts.server && !opts.alive(m.pid));
}
