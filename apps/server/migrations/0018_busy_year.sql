ALTER TABLE "contract" ADD COLUMN "deal_at" text GENERATED ALWAYS AS (("context"->>'dealAt')) STORED;--> statement-breakpoint
ALTER TABLE "trade_order" ADD COLUMN "invoiced_fen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "trade_order" AS o SET "invoiced_fen" = i.total FROM (SELECT "order_id", SUM("total_fen") AS total FROM "invoice" WHERE "status" IN ('pending', 'confirmed') GROUP BY "order_id") AS i WHERE i."order_id" = o."id";--> statement-breakpoint
-- an order's live invoices' total (INVOICE_LIVE_STATES), kept with every invoice written or moved
CREATE FUNCTION order_invoiced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE trade_order SET invoiced_fen = (
    SELECT COALESCE(SUM(total_fen), 0) FROM invoice WHERE order_id = NEW.order_id AND status IN ('pending', 'confirmed')
  ) WHERE id = NEW.order_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER order_invoiced AFTER INSERT OR UPDATE OF "status", "total_fen" ON "invoice" FOR EACH ROW EXECUTE FUNCTION order_invoiced();--> statement-breakpoint
ALTER TABLE "dispatch" ADD COLUMN "seller_enterprise_id" bigint;--> statement-breakpoint
ALTER TABLE "dispatch" ADD COLUMN "buyer_enterprise_id" bigint;--> statement-breakpoint
UPDATE "dispatch" AS d SET "seller_enterprise_id" = o."seller_enterprise_id", "buyer_enterprise_id" = o."buyer_enterprise_id" FROM "trade_order" AS o WHERE o."id" = d."order_id";--> statement-breakpoint
-- a truck's parties are its order's, copied on insert (an order's parties never change)
CREATE FUNCTION dispatch_parties() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT o.seller_enterprise_id, o.buyer_enterprise_id INTO NEW.seller_enterprise_id, NEW.buyer_enterprise_id
    FROM trade_order o WHERE o.id = NEW.order_id;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER dispatch_parties BEFORE INSERT ON "dispatch" FOR EACH ROW EXECUTE FUNCTION dispatch_parties();--> statement-breakpoint
CREATE INDEX "fund_deposit_in_pending_idx" ON "fund_deposit_in" USING btree ("enterprise_id") WHERE "fund_deposit_in"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "fund_journal_enterprise_id_idx" ON "fund_journal" USING btree ("enterprise_id","id");--> statement-breakpoint
CREATE INDEX "fund_journal_enterprise_kind_idx" ON "fund_journal" USING btree ("enterprise_id","kind","id");--> statement-breakpoint
CREATE INDEX "fund_journal_enterprise_kind_at_idx" ON "fund_journal" USING btree ("enterprise_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "fund_trade_deposit_held_idx" ON "fund_trade_deposit" USING btree ("enterprise_id","amount") WHERE "fund_trade_deposit"."status" IN ('frozen', 'performance');--> statement-breakpoint
CREATE INDEX "fund_withdrawal_pending_idx" ON "fund_withdrawal" USING btree ("enterprise_id","amount") WHERE "fund_withdrawal"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "listing_subscription_pending_idx" ON "listing_subscription" USING btree ("enterprise_id") WHERE "listing_subscription"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "listing_subscription_pending_listing_idx" ON "listing_subscription" USING btree ("listing_id") WHERE "listing_subscription"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "listing_due_start_idx" ON "listing" USING btree ("listed_date_start") WHERE "listing"."status" = 'approved' AND "listing"."hang_state" = 0;--> statement-breakpoint
CREATE INDEX "listing_due_end_idx" ON "listing" USING btree ("listed_date_end") WHERE "listing"."status" = 'approved' AND "listing"."hang_state" IN (0, 1);--> statement-breakpoint
CREATE INDEX "listing_sold_out_idx" ON "listing" USING btree ("id") WHERE "listing"."status" = 'approved' AND "listing"."hang_state" IN (0, 1) AND "listing"."subscribed_kg" >= "listing"."quantity_kg";--> statement-breakpoint
CREATE INDEX "listing_reopenable_idx" ON "listing" USING btree ("listed_date_end") WHERE "listing"."status" = 'approved' AND "listing"."hang_state" = 2;--> statement-breakpoint
CREATE INDEX "deal_created_idx" ON "deal" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "auction_enrolment_enterprise_idx" ON "auction_enrolment" USING btree ("enterprise_id");--> statement-breakpoint
CREATE INDEX "auction_due_enrolment_idx" ON "auction" USING btree ("enrol_deadline") WHERE "auction"."status" = 'approved' AND "auction"."hang_state" = 0;--> statement-breakpoint
CREATE INDEX "auction_due_bidding_idx" ON "auction" USING btree ("bid_start") WHERE "auction"."status" = 'approved' AND "auction"."hang_state" = 1;--> statement-breakpoint
CREATE INDEX "auction_bid_start_idx" ON "auction" USING btree ("bid_start") WHERE "auction"."status" = 'approved' AND "auction"."result" IS NULL;--> statement-breakpoint
CREATE INDEX "contract_deal_at_idx" ON "contract" USING btree ("deal_at","id");--> statement-breakpoint
CREATE INDEX "contract_seller_deal_at_idx" ON "contract" USING btree ("seller_enterprise_id","deal_at","id");--> statement-breakpoint
CREATE INDEX "contract_buyer_deal_at_idx" ON "contract" USING btree ("buyer_enterprise_id","deal_at","id");--> statement-breakpoint
CREATE INDEX "contract_deal_no_idx" ON "contract" USING btree (("context"->>'dealNo'));--> statement-breakpoint
CREATE INDEX "contract_signable_seller_idx" ON "contract" USING btree ("seller_enterprise_id") WHERE "contract"."status" IN ('pending', 'seller_signed', 'buyer_signed') AND "contract"."seller_signed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "contract_signable_buyer_idx" ON "contract" USING btree ("buyer_enterprise_id") WHERE "contract"."status" IN ('pending', 'seller_signed', 'buyer_signed') AND "contract"."buyer_signed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "sys_audit_log_action_idx" ON "sys_audit_log" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "trade_order_deal_idx" ON "trade_order" USING btree ("deal_id");--> statement-breakpoint
CREATE INDEX "trade_order_created_idx" ON "trade_order" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "trade_order_seller_created_idx" ON "trade_order" USING btree ("seller_enterprise_id","created_at","id");--> statement-breakpoint
CREATE INDEX "trade_order_buyer_created_idx" ON "trade_order" USING btree ("buyer_enterprise_id","created_at","id");--> statement-breakpoint
CREATE INDEX "trade_order_seller_status_idx" ON "trade_order" USING btree ("seller_enterprise_id","status");--> statement-breakpoint
CREATE INDEX "trade_order_buyer_status_idx" ON "trade_order" USING btree ("buyer_enterprise_id","status");--> statement-breakpoint
CREATE INDEX "trade_order_escrow_idx" ON "trade_order" USING btree ("buyer_enterprise_id") WHERE "trade_order"."escrow_fen" > 0;--> statement-breakpoint
CREATE INDEX "trade_order_invoice_due_idx" ON "trade_order" USING btree ("settled_at","id") WHERE "trade_order"."status" = 'settled' AND "trade_order"."invoiced_fen" <> "trade_order"."settled_fen";--> statement-breakpoint
CREATE INDEX "trade_order_seller_invoice_due_idx" ON "trade_order" USING btree ("seller_enterprise_id","settled_at","id") WHERE "trade_order"."status" = 'settled' AND "trade_order"."invoiced_fen" <> "trade_order"."settled_fen";--> statement-breakpoint
CREATE INDEX "trade_order_buyer_invoice_due_idx" ON "trade_order" USING btree ("buyer_enterprise_id","settled_at","id") WHERE "trade_order"."status" = 'settled' AND "trade_order"."invoiced_fen" <> "trade_order"."settled_fen";--> statement-breakpoint
CREATE INDEX "trade_order_delivering_idx" ON "trade_order" USING btree (("terms"->>'deliveryDateEnd')) WHERE "trade_order"."status" IN ('awaiting_shipment', 'shipping');--> statement-breakpoint
CREATE INDEX "driver_waiting_idx" ON "driver" USING btree ("status","enterprise_id") WHERE "driver"."status" IN ('pending', 'rejected');--> statement-breakpoint
CREATE INDEX "dispatch_seller_idx" ON "dispatch" USING btree ("seller_enterprise_id","id");--> statement-breakpoint
CREATE INDEX "dispatch_buyer_idx" ON "dispatch" USING btree ("buyer_enterprise_id","id");--> statement-breakpoint
CREATE INDEX "dispatch_plate_idx" ON "dispatch" USING btree ("plate_no" text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "dispatch_seller_plate_idx" ON "dispatch" USING btree ("seller_enterprise_id","plate_no" text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "dispatch_buyer_plate_idx" ON "dispatch" USING btree ("buyer_enterprise_id","plate_no" text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "dispatch_waiting_idx" ON "dispatch" USING btree ("status","buyer_enterprise_id","seller_enterprise_id") WHERE "dispatch"."status" IN ('arrived', 'disputed');--> statement-breakpoint
CREATE INDEX "quality_report_waiting_idx" ON "quality_report" USING btree ("status","order_id") WHERE "quality_report"."status" IN ('submitted', 'disputed');--> statement-breakpoint
CREATE INDEX "invoice_created_idx" ON "invoice" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "invoice_seller_created_idx" ON "invoice" USING btree ("seller_enterprise_id","created_at","id");--> statement-breakpoint
CREATE INDEX "invoice_buyer_created_idx" ON "invoice" USING btree ("buyer_enterprise_id","created_at","id");--> statement-breakpoint
CREATE INDEX "invoice_pending_idx" ON "invoice" USING btree ("buyer_enterprise_id") WHERE "invoice"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "settlement_statement_waiting_idx" ON "settlement_statement" USING btree ("status","buyer_enterprise_id") WHERE "settlement_statement"."status" IN ('pending', 'disputed');