import type { MarketBoard, MovedAuction } from '@coalx/shared';
import { requestResult } from '@/app/request';

/** The trading centre's live market board (实时监控) and its pause / resume / cancel of auctions. */

const post = <T>(path: string, data: unknown) => requestResult<T>(path, { method: 'POST', data });

export const getMarketBoard = () => post<MarketBoard>('/api/monitor/board', {});
export const getRoomBidders = (tradeId: string) => post<{ bidder: string; enterpriseName: string; status: string }[]>('/api/monitor/auction/bidders', { tradeId });
export const getCancelPreview = (tradeId: string) => post<{ depositCount: number; depositTotal: number }>('/api/monitor/auction/cancelPreview', { tradeId });
export const pauseAuction = (tradeId: string, reason: string) => post<MovedAuction>('/api/monitor/auction/pause', { tradeId, reason });
export const resumeAuction = (tradeId: string) => post<MovedAuction>('/api/monitor/auction/resume', { tradeId });
export const cancelAuction = (tradeId: string, reason: string) => post<MovedAuction & { releasedDeposit: number }>('/api/monitor/auction/cancel', { tradeId, reason });
