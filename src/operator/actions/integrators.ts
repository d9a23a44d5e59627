import type { ConsoleAction } from '../../console/entry.ts';
import type { OperatorIdentity } from '../../domain/operators/accounts.ts';
import { type CreatedIntegrator, createIntegrator } from '../../domain/operators/integrators.ts';

/** The new-integrator page's form: made, with its secrets and the owner's invitation shown once. */
export const createIntegratorAction: ConsoleAction<CreatedIntegrator, OperatorIdentity> = (ctx) =>
  createIntegrator(
    ctx.app,
    ctx.identity,
    {
      name: ctx.field('name'),
      email: ctx.field('email'),
      support_email: ctx.field('support_email'),
      default_callback_url: ctx.field('default_callback_url'),
      owner_email: ctx.field('owner_email'),
    },
    ctx.from,
  );
