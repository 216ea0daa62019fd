import { EnterpriseInfoSchema, envelopeSchema } from '@coalx/shared';
import { ok } from '../../lib/envelope';
import type { ZodApp } from '../../lib/route-types';
import { requireActor } from '../../plugins/authenticate';
import { getEnterpriseInfo } from './enterprise.service';

export default async function enterpriseRoutes(app: ZodApp) {
  app.get(
    '/sys/enterprise/info',
    { schema: { tags: ['enterprise'], summary: '当前用户所属企业 (平台人员为 null)', response: { 200: envelopeSchema(EnterpriseInfoSchema) } } },
    async (request) => ok(await getEnterpriseInfo(app.db, requireActor(request).enterpriseId)),
  );
}
