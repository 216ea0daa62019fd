import type { IndexTermSamples, MarketData, MarketDataQuery } from '@coalx/shared';
import { requestResult } from '@/app/request';

export type { IndexTermSamples, MarketData, MarketDay } from '@coalx/shared';

/** 行情: daily candles of one product (optionally one delivery province), public. */
export const marketDaily = (query: Partial<MarketDataQuery>) => requestResult<MarketData>('/api/tradeHome/market/daily', { params: { ...query } });

/** One published index term with its sample deals (the index method page), public. */
export const indexTermSamples = (year: number, term: number) =>
  requestResult<IndexTermSamples | null>('/api/commoditymarketindex/commodityMarketIndex/samples', { params: { year, term } });
