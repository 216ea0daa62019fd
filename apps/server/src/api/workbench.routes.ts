import { envelopeSchema, WorkbenchSchema } from '@coalx/shared';
import { workbenchFor } from '../queries/workbench-todo';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { workbenchPolicy } from '../modules/workbench/workbench.policy';

export default async function workbenchRoutes(app: ZodApp) {
  app.get(
    '/api/workbench/todo',
    { config: { permission: 'workbench' }, schema: { tags: ['workbench'], summary: '工作台首页：本角色的待办与资金', response: { 200: envelopeSchema(WorkbenchSchema) } } },
    async (request) => {
      const actor = requireActor(request);
      return ok(await workbenchFor(app.db, app.clock.now(), workbenchPolicy.can(actor, 'view')));
    },
  );
}
