CREATE TABLE "invoice" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"order_no" text NOT NULL,
	"settlement_no" text NOT NULL,
	"seller_enterprise_id" bigint NOT NULL,
	"buyer_enterprise_id" bigint NOT NULL,
	"seller_name" text NOT NULL,
	"buyer_name" text NOT NULL,
	"direction" text DEFAULT 'blue' NOT NULL,
	"kind" text NOT NULL,
	"medium" text NOT NULL,
	"code" text DEFAULT '' NOT NULL,
	"number" text NOT NULL,
	"issued_on" text NOT NULL,
	"rate" integer NOT NULL,
	"amount_fen" bigint NOT NULL,
	"tax_fen" bigint NOT NULL,
	"total_fen" bigint NOT NULL,
	"file_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reverses_id" bigint,
	"reverse_reason" text DEFAULT '' NOT NULL,
	"confirm_note" text DEFAULT '' NOT NULL,
	"confirmed_by" bigint,
	"confirmed_at" timestamp with time zone,
	"reversed_at" timestamp with time zone,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_statement" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"statement_no" text NOT NULL,
	"order_id" bigint NOT NULL,
	"seller_enterprise_id" bigint NOT NULL,
	"buyer_enterprise_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount_fen" bigint NOT NULL,
	"escrow_fen" bigint NOT NULL,
	"fee_fen" bigint NOT NULL,
	"settled_kg" bigint NOT NULL,
	"figures" jsonb NOT NULL,
	"dispute_reason" text DEFAULT '' NOT NULL,
	"ruling_note" text DEFAULT '' NOT NULL,
	"issued_by" bigint NOT NULL,
	"issued_by_name" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"confirmed_by" bigint,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlement_statement_statement_no_unique" UNIQUE("statement_no")
);
--> statement-breakpoint
CREATE TABLE "freight_line" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"statement_id" bigint NOT NULL,
	"dispatch_id" bigint NOT NULL,
	"dispatch_no" text NOT NULL,
	"order_id" bigint NOT NULL,
	"order_no" text NOT NULL,
	"driver_name" text NOT NULL,
	"plate_no" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"loaded_net_kg" bigint NOT NULL,
	"arrived_net_kg" bigint NOT NULL,
	"signed_kg" bigint NOT NULL,
	"loss_kg" bigint NOT NULL,
	"transit_loss_pct" numeric(5, 2) NOT NULL,
	"excess_loss_kg" bigint NOT NULL,
	"order_price_fen" bigint NOT NULL,
	"rate_fen" bigint NOT NULL,
	"freight_fen" bigint NOT NULL,
	"loss_deduction_fen" bigint NOT NULL,
	"line_fen" bigint NOT NULL,
	"live" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "freight_statement" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"statement_no" text NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"carrier_kind" text NOT NULL,
	"driver_id" bigint,
	"carrier_name" text NOT NULL,
	"period_from" text NOT NULL,
	"period_to" text NOT NULL,
	"rate_fen" bigint NOT NULL,
	"trucks" integer NOT NULL,
	"signed_kg" bigint NOT NULL,
	"freight_fen" bigint NOT NULL,
	"loss_deduction_fen" bigint NOT NULL,
	"subtotal_fen" bigint NOT NULL,
	"tax_fen" bigint NOT NULL,
	"total_fen" bigint NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"signed_copy_file_id" bigint,
	"carrier_signer" text DEFAULT '' NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirmed_by" bigint,
	"voucher_file_id" bigint,
	"pay_note" text DEFAULT '' NOT NULL,
	"paid_at" timestamp with time zone,
	"paid_by" bigint,
	"cancelled_at" timestamp with time zone,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "freight_statement_statement_no_unique" UNIQUE("statement_no")
);
--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_order_id_trade_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."trade_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_seller_enterprise_id_enterprise_id_fk" FOREIGN KEY ("seller_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_buyer_enterprise_id_enterprise_id_fk" FOREIGN KEY ("buyer_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_file_id_file_object_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_confirmed_by_sys_user_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_statement" ADD CONSTRAINT "settlement_statement_order_id_trade_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."trade_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_statement" ADD CONSTRAINT "settlement_statement_seller_enterprise_id_enterprise_id_fk" FOREIGN KEY ("seller_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_statement" ADD CONSTRAINT "settlement_statement_buyer_enterprise_id_enterprise_id_fk" FOREIGN KEY ("buyer_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_statement" ADD CONSTRAINT "settlement_statement_issued_by_sys_user_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_statement" ADD CONSTRAINT "settlement_statement_confirmed_by_sys_user_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_line" ADD CONSTRAINT "freight_line_statement_id_freight_statement_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."freight_statement"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_signed_copy_file_id_file_object_id_fk" FOREIGN KEY ("signed_copy_file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_confirmed_by_sys_user_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_voucher_file_id_file_object_id_fk" FOREIGN KEY ("voucher_file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_paid_by_sys_user_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_number_uq" ON "invoice" USING btree ("code","number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_reverses_uq" ON "invoice" USING btree ("reverses_id") WHERE "invoice"."reverses_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "invoice_order_idx" ON "invoice" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "invoice_seller_idx" ON "invoice" USING btree ("seller_enterprise_id","id");--> statement-breakpoint
CREATE INDEX "invoice_buyer_idx" ON "invoice" USING btree ("buyer_enterprise_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_statement_live_uq" ON "settlement_statement" USING btree ("order_id") WHERE "settlement_statement"."status" <> 'returned';--> statement-breakpoint
CREATE INDEX "settlement_statement_seller_idx" ON "settlement_statement" USING btree ("seller_enterprise_id","id");--> statement-breakpoint
CREATE INDEX "settlement_statement_buyer_idx" ON "settlement_statement" USING btree ("buyer_enterprise_id","id");--> statement-breakpoint
CREATE INDEX "freight_line_statement_idx" ON "freight_line" USING btree ("statement_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "freight_line_live_dispatch_uq" ON "freight_line" USING btree ("dispatch_id") WHERE "freight_line"."live";--> statement-breakpoint
CREATE INDEX "freight_line_order_idx" ON "freight_line" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "freight_statement_enterprise_idx" ON "freight_statement" USING btree ("enterprise_id","id");--> statement-breakpoint
CREATE INDEX "freight_statement_status_idx" ON "freight_statement" USING btree ("status","id");