/**
 * Whether this process may take traffic (GET /readyz), as load balancers and container runtimes
 * ask it. The process listens before it is ready (provisioning names links by the bound port), so
 * until every step below is done the HTTP server answers every other request 503 with
 * Retry-After: a seeded link never answers 404, nor a seeded token 401, for a moment after start.
 * /healthz stays the liveness check: the process answers and its database does.
 */
export type ReadinessStep = 'migrations' | 'provisioning' | 'workers';

export type StepState = 'pending' | 'ok' | 'not_in_this_process';

export class Readiness {
  private readonly steps: Record<ReadinessStep, StepState> = { migrations: 'pending', provisioning: 'pending', workers: 'pending' };
  private draining = false;

  done(step: ReadinessStep, state: Exclude<StepState, 'pending'> = 'ok'): void {
    this.steps[step] = state;
  }

  /** SIGTERM: readiness goes first, so the balancer stops sending before the server closes. */
  drain(): void {
    this.draining = true;
  }

  get ready(): boolean {
    return !this.draining && Object.values(this.steps).every((s) => s !== 'pending');
  }

  get started(): boolean {
    return Object.values(this.steps).every((s) => s !== 'pending');
  }

  view(): { status: 'ready' | 'starting' | 'draining'; checks: Record<ReadinessStep, StepState> } {
    return { status: this.draining ? 'draining' : this.ready ? 'ready' : 'starting', checks: { ...this.steps } };
  }
}
