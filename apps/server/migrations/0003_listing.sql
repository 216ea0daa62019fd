CREATE TABLE "product" (
	"id" serial PRIMARY KEY NOT NULL,
	"stock_code" text NOT NULL,
	"stock_name" text NOT NULL,
	"category" text NOT NULL,
	"quality" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_stock_code_unique" UNIQUE("stock_code")
);
--> statement-breakpoint
CREATE TABLE "deal" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"deal_no" text NOT NULL,
	"trade_kind" text NOT NULL,
	"trade_no" text NOT NULL,
	"trade_type" integer NOT NULL,
	"source_id" bigint NOT NULL,
	"seller_enterprise_id" bigint NOT NULL,
	"buyer_enterprise_id" bigint NOT NULL,
	"stock_code" text NOT NULL,
	"product_name" text NOT NULL,
	"quantity_kg" bigint NOT NULL,
	"price_fen" bigint NOT NULL,
	"amount_fen" bigint NOT NULL,
	"deposit_fen" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_deal_no_unique" UNIQUE("deal_no")
);
--> statement-breakpoint
CREATE TABLE "listing_subscription" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"listing_id" bigint NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"quantity_kg" bigint NOT NULL,
	"price_fen" bigint NOT NULL,
	"amount_fen" bigint NOT NULL,
	"deposit_fen" bigint NOT NULL,
	"deposit_id" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"decline_reason" text,
	"decided_at" timestamp with time zone,
	"request_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listing_subscription_quantity" CHECK ("listing_subscription"."quantity_kg" > 0)
);
--> statement-breakpoint
CREATE TABLE "listing" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trade_no" text NOT NULL,
	"trade_type" integer NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"created_by" bigint NOT NULL,
	"stock_code" text NOT NULL,
	"product_name" text NOT NULL,
	"category" text NOT NULL,
	"quality" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"quantity_kg" bigint NOT NULL,
	"subscribed_kg" bigint DEFAULT 0 NOT NULL,
	"price_fen" bigint NOT NULL,
	"min_subscribe_kg" bigint NOT NULL,
	"max_subscribe_kg" bigint NOT NULL,
	"deposit_mode" text NOT NULL,
	"deposit_value_fen" bigint NOT NULL,
	"price_type" text NOT NULL,
	"transport" text NOT NULL,
	"delivery_province" text NOT NULL,
	"delivery_city" text NOT NULL,
	"delivery_district" text NOT NULL,
	"delivery_place" text NOT NULL,
	"delivery_date_start" date NOT NULL,
	"delivery_date_end" date NOT NULL,
	"listed_date_start" timestamp with time zone NOT NULL,
	"listed_date_end" timestamp with time zone NOT NULL,
	"auto_confirm" boolean DEFAULT false NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"reject_reason" text,
	"audit_time" timestamp with time zone,
	"audited_by" bigint,
	"hang_state" integer DEFAULT 0 NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listing_trade_no_unique" UNIQUE("trade_no"),
	CONSTRAINT "listing_quantities" CHECK ("listing"."quantity_kg" > 0 AND "listing"."subscribed_kg" >= 0 AND "listing"."subscribed_kg" <= "listing"."quantity_kg"),
	CONSTRAINT "listing_subscribe_range" CHECK ("listing"."min_subscribe_kg" > 0 AND "listing"."min_subscribe_kg" <= "listing"."max_subscribe_kg" AND "listing"."max_subscribe_kg" <= "listing"."quantity_kg"),
	CONSTRAINT "listing_money" CHECK ("listing"."price_fen" >= 0 AND "listing"."deposit_value_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "trade_sequence" (
	"prefix" text NOT NULL,
	"day" text NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "trade_sequence_prefix_day_pk" PRIMARY KEY("prefix","day")
);
--> statement-breakpoint
ALTER TABLE "deal" ADD CONSTRAINT "deal_seller_enterprise_id_enterprise_id_fk" FOREIGN KEY ("seller_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal" ADD CONSTRAINT "deal_buyer_enterprise_id_enterprise_id_fk" FOREIGN KEY ("buyer_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_subscription" ADD CONSTRAINT "listing_subscription_listing_id_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listing"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_subscription" ADD CONSTRAINT "listing_subscription_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_subscription" ADD CONSTRAINT "listing_subscription_user_id_sys_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing" ADD CONSTRAINT "listing_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing" ADD CONSTRAINT "listing_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing" ADD CONSTRAINT "listing_audited_by_sys_user_id_fk" FOREIGN KEY ("audited_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deal_source_uq" ON "deal" USING btree ("trade_kind","source_id");--> statement-breakpoint
CREATE INDEX "deal_trade_idx" ON "deal" USING btree ("trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "listing_subscription_request_uq" ON "listing_subscription" USING btree ("enterprise_id","request_id");--> statement-breakpoint
CREATE INDEX "listing_subscription_listing_idx" ON "listing_subscription" USING btree ("listing_id");--> statement-breakpoint
CREATE INDEX "listing_market_idx" ON "listing" USING btree ("status","hang_state","trade_type");--> statement-breakpoint
CREATE INDEX "listing_enterprise_idx" ON "listing" USING btree ("enterprise_id");