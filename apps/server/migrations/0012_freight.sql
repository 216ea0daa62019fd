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
ALTER TABLE "freight_line" ADD CONSTRAINT "freight_line_statement_id_freight_statement_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."freight_statement"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_signed_copy_file_id_file_object_id_fk" FOREIGN KEY ("signed_copy_file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_confirmed_by_sys_user_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_voucher_file_id_file_object_id_fk" FOREIGN KEY ("voucher_file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_paid_by_sys_user_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "freight_statement" ADD CONSTRAINT "freight_statement_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "freight_line_statement_idx" ON "freight_line" USING btree ("statement_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "freight_line_live_dispatch_uq" ON "freight_line" USING btree ("dispatch_id") WHERE "freight_line"."live";--> statement-breakpoint
CREATE INDEX "freight_line_order_idx" ON "freight_line" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "freight_statement_enterprise_idx" ON "freight_statement" USING btree ("enterprise_id","id");--> statement-breakpoint
CREATE INDEX "freight_statement_status_idx" ON "freight_statement" USING btree ("status","id");