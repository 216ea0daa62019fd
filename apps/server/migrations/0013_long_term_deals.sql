CREATE TABLE "long_term_application" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"long_term_id" bigint NOT NULL,
	"buyer_enterprise_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "long_term_call_off" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"call_off_no" text NOT NULL,
	"long_term_id" bigint NOT NULL,
	"month" text NOT NULL,
	"quantity_kg" bigint NOT NULL,
	"price_fen" bigint NOT NULL,
	"amount_fen" bigint NOT NULL,
	"delivery_date_start" text NOT NULL,
	"delivery_date_end" text NOT NULL,
	"initiator" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"deal_id" bigint,
	"deal_no" text,
	"created_by" bigint,
	"decided_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "long_term_call_off_call_off_no_unique" UNIQUE("call_off_no")
);
--> statement-breakpoint
CREATE TABLE "long_term_deal" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"long_term_no" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"seller_enterprise_id" bigint NOT NULL,
	"buyer_enterprise_id" bigint,
	"target_enterprise_id" bigint,
	"stock_code" text NOT NULL,
	"product_name" text NOT NULL,
	"quality" jsonb NOT NULL,
	"price_type" text NOT NULL,
	"transport" text NOT NULL,
	"delivery_province" text NOT NULL,
	"delivery_city" text NOT NULL,
	"delivery_district" text DEFAULT '' NOT NULL,
	"delivery_place" text NOT NULL,
	"period_start" text NOT NULL,
	"period_end" text NOT NULL,
	"planned_kg" bigint NOT NULL,
	"pricing" jsonb NOT NULL,
	"apply_deadline" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"contract_id" bigint,
	"terminate_reason" text,
	"created_by" bigint,
	"published_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"executing_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "long_term_deal_long_term_no_unique" UNIQUE("long_term_no")
);
--> statement-breakpoint
CREATE TABLE "long_term_month" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"long_term_id" bigint NOT NULL,
	"month" text NOT NULL,
	"planned_kg" bigint NOT NULL,
	"reserved_kg" bigint DEFAULT 0 NOT NULL,
	"price" jsonb,
	"priced_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "contract" ALTER COLUMN "deal_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "contract" ADD COLUMN "long_term_id" bigint;--> statement-breakpoint
ALTER TABLE "long_term_application" ADD CONSTRAINT "long_term_application_long_term_id_long_term_deal_id_fk" FOREIGN KEY ("long_term_id") REFERENCES "public"."long_term_deal"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "long_term_application" ADD CONSTRAINT "long_term_application_buyer_enterprise_id_enterprise_id_fk" FOREIGN KEY ("buyer_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "long_term_application" ADD CONSTRAINT "long_term_application_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "long_term_call_off" ADD CONSTRAINT "long_term_call_off_long_term_id_long_term_deal_id_fk" FOREIGN KEY ("long_term_id") REFERENCES "public"."long_term_deal"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "long_term_call_off" ADD CONSTRAINT "long_term_call_off_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "long_term_call_off" ADD CONSTRAINT "long_term_call_off_decided_by_sys_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "long_term_deal" ADD CONSTRAINT "long_term_deal_seller_enterprise_id_enterprise_id_fk" FOREIGN KEY ("seller_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "long_term_deal" ADD CONSTRAINT "long_term_deal_buyer_enterprise_id_enterprise_id_fk" FOREIGN KEY ("buyer_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "long_term_deal" ADD CONSTRAINT "long_term_deal_target_enterprise_id_enterprise_id_fk" FOREIGN KEY ("target_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "long_term_deal" ADD CONSTRAINT "long_term_deal_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "long_term_month" ADD CONSTRAINT "long_term_month_long_term_id_long_term_deal_id_fk" FOREIGN KEY ("long_term_id") REFERENCES "public"."long_term_deal"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "long_term_application_deal_idx" ON "long_term_application" USING btree ("long_term_id");--> statement-breakpoint
CREATE UNIQUE INDEX "long_term_application_pending_uq" ON "long_term_application" USING btree ("long_term_id","buyer_enterprise_id") WHERE "long_term_application"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "long_term_call_off_deal_idx" ON "long_term_call_off" USING btree ("long_term_id","month");--> statement-breakpoint
CREATE UNIQUE INDEX "long_term_call_off_deal_uq" ON "long_term_call_off" USING btree ("deal_id");--> statement-breakpoint
CREATE INDEX "long_term_seller_idx" ON "long_term_deal" USING btree ("seller_enterprise_id","id");--> statement-breakpoint
CREATE INDEX "long_term_buyer_idx" ON "long_term_deal" USING btree ("buyer_enterprise_id","id");--> statement-breakpoint
CREATE INDEX "long_term_status_idx" ON "long_term_deal" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "long_term_month_uq" ON "long_term_month" USING btree ("long_term_id","month");--> statement-breakpoint
ALTER TABLE "contract" ADD CONSTRAINT "contract_long_term_id_long_term_deal_id_fk" FOREIGN KEY ("long_term_id") REFERENCES "public"."long_term_deal"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contract_long_term_uq" ON "contract" USING btree ("long_term_id");--> statement-breakpoint
ALTER TABLE "contract" ADD CONSTRAINT "contract_deal_or_long_term" CHECK (("contract"."deal_id" IS NULL) <> ("contract"."long_term_id" IS NULL));