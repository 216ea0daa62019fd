-- 公开出价记录 (public bid log): every accepted bid carries
--   hash = SHA-256( previous hash | trade_no | seq | bidder alias | price_fen | acceptance time, ISO 8601 UTC with ms )
-- over UTF-8, as 64 lowercase hex digits; the first bid's previous hash is SHA-256(trade_no), and auction.bid_log_hash
-- keeps the latest one (packages/shared/src/auction/bid-log.ts defines it; the README states it). Bids accepted before
-- this migration are chained here in sequence order with the same bytes the application hashes (the alias is
-- bidderAlias(): '竞买人' and the bidder number); a test recomputes them with the application's function.
ALTER TABLE "auction_bid" ADD COLUMN "hash" text;--> statement-breakpoint
ALTER TABLE "auction" ADD COLUMN "bid_log_hash" text;--> statement-breakpoint
WITH RECURSIVE ordered AS (
  SELECT b.id, b.auction_id, a.trade_no,
    row_number() OVER (PARTITION BY b.auction_id ORDER BY b.seq) AS n,
    '|' || a.trade_no || '|' || b.seq || '|' || '竞买人' || b.bidder_no || '|' || b.price_fen || '|'
      || to_char(b.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS rest
  FROM auction_bid b JOIN auction a ON a.id = b.auction_id
), chain AS (
  SELECT o.id, o.auction_id, o.n,
    encode(sha256(convert_to(encode(sha256(convert_to(o.trade_no, 'UTF8')), 'hex') || o.rest, 'UTF8')), 'hex') AS hash
  FROM ordered o WHERE o.n = 1
  UNION ALL
  SELECT o.id, o.auction_id, o.n, encode(sha256(convert_to(c.hash || o.rest, 'UTF8')), 'hex')
  FROM chain c JOIN ordered o ON o.auction_id = c.auction_id AND o.n = c.n + 1
)
UPDATE "auction_bid" SET "hash" = chain.hash FROM chain WHERE "auction_bid".id = chain.id;--> statement-breakpoint
UPDATE "auction" SET "bid_log_hash" = (SELECT b.hash FROM "auction_bid" b WHERE b.auction_id = "auction".id ORDER BY b.seq DESC LIMIT 1)
  WHERE EXISTS (SELECT 1 FROM "auction_bid" b WHERE b.auction_id = "auction".id);--> statement-breakpoint
ALTER TABLE "auction_bid" ALTER COLUMN "hash" SET NOT NULL;
