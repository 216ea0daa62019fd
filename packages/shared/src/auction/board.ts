import { z } from 'zod';
import { safeString } from '../text';
import { AuctionTradeIdSchema } from './schemas';

/**
 * The trading centre's live market board (实时监控): today's listings and auctions with real enterprise names, and
 * the answers of its pause / resume / cancel. Money in fen, times in epoch milliseconds.
 */
export const BoardAuctionSchema = z.object({
  tradeId: safeString(),
  tradeType: z.number(),
  productName: safeString(),
  enterpriseName: safeString(),
  hangState: z.number(),
  quantity: z.number(),
  startPrice: z.number(),
  /** the best bid, else the start price */
  currentPrice: z.number(),
  /** how far bidding moved the price in the publisher's favour (a sale up, a purchase down), fen per ton */
  premium: z.number(),
  /** premium ÷ start price, in basis points (1/100 of a percent) */
  premiumBp: z.number(),
  enrolCount: z.number(),
  bidCount: z.number(),
  deposit: z.number(),
  bidStart: z.number(),
  currentEnd: z.number(),
  /** time left to the state's next moment (enrolment deadline, bidding start, deadline), frozen while paused */
  remainingMs: z.number().nullable(),
  operatorReason: safeString().nullable(),
  result: safeString().nullable(),
});
export type BoardAuction = z.infer<typeof BoardAuctionSchema>;

export const BoardListingSchema = z.object({
  tradeId: safeString(),
  tradeType: z.number(),
  productName: safeString(),
  enterpriseName: safeString(),
  hangState: z.number(),
  quantity: z.number(),
  subscribed: z.number(),
  price: z.number(),
  subscriptionCount: z.number(),
  listedDateStart: z.number(),
  listedDateEnd: z.number(),
  remainingMs: z.number().nullable(),
});
export type BoardListing = z.infer<typeof BoardListingSchema>;

export const MarketBoardSchema = z.object({ auctions: z.array(BoardAuctionSchema), listings: z.array(BoardListingSchema), serverTime: z.number() });
export type MarketBoard = z.infer<typeof MarketBoardSchema>;

export const OperatorReasonSchema = AuctionTradeIdSchema.extend({ reason: safeString().trim().min(2, '请填写原因（至少 2 个字）').max(200, '原因不超过 200 字') });
export const MovedAuctionSchema = z.object({ tradeId: safeString(), hangState: z.number(), currentEnd: z.number(), pausedRemainingMs: z.number().nullable() });
export type MovedAuction = z.infer<typeof MovedAuctionSchema>;
