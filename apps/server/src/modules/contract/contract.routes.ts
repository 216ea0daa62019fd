import type { ZodApp } from '../../lib/route-types';

/** Contracts: lists, detail, PDF, terms, signing, paper copies, the operator's rulings. */
export default async function contractRoutes(_app: ZodApp) {}
