import { AreaChildrenQuerySchema, AreaNodeSchema, envelopeSchema } from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { childAreas, rootAreas } from '../modules/area/area.service';

/** The cascading area picker of spec §3: provinces first, then children on demand (registration needs no sign-in). */
export default async function areaRoutes(app: ZodApp) {
  const tags = ['area'];
  const response = { 200: envelopeSchema(z.array(AreaNodeSchema)) };

  app.get(
    '/sys/area/root',
    { config: { permission: 'public' }, schema: { tags, summary: '省份列表 (地区级联根节点)', response } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=86400');
      return ok(await rootAreas(app.db));
    },
  );

  app.get(
    '/sys/area/children',
    { config: { permission: 'public' }, schema: { tags, summary: '下级地区 (按上级编码 pcode)', querystring: AreaChildrenQuerySchema, response } },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=86400');
      return ok(await childAreas(app.db, request.query.pcode));
    },
  );
}
