import type { ZodApp } from '../../lib/route-types';

/** 模板配置: the admin's contract templates (built by the template work). */
export default async function contractTemplateRoutes(_app: ZodApp) {}
