import type { FundsFlowDay, FundsOverview, Reconciliation } from '@coalx/shared';
import { requestResult, type PageResult } from '@/app/request';

/** 资金总览 and the funds reconciliation (资金对账), apps/server/src/api/operation-funds.routes.ts. */
export const getFundsOverview = () => requestResult<FundsOverview>('/api/operation/funds/overview');

export const getFundsFlows = (dateFrom: string, dateTo: string) => requestResult<FundsFlowDay[]>('/api/operation/funds/flows', { params: { dateFrom, dateTo } });

export const listReconciliations = (pageNo: number, pageSize: number) =>
  requestResult<PageResult<Reconciliation>>('/api/operation/funds/reconciliations', { params: { pageNo, pageSize } });

export const reconcileNow = () => requestResult<Reconciliation>('/api/operation/funds/reconcile', { method: 'POST' });
