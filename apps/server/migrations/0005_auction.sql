CREATE TABLE "auction_bid" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"auction_id" bigint NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"bidder_no" integer NOT NULL,
	"seq" integer NOT NULL,
	"price_fen" bigint NOT NULL,
	"in_extension" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "auction_bid_price" CHECK ("auction_bid"."price_fen" > 0)
);
--> statement-breakpoint
CREATE TABLE "auction_enrolment" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"auction_id" bigint NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"bidder_no" integer NOT NULL,
	"deposit_id" bigint,
	"status" text DEFAULT 'enrolled' NOT NULL,
	"request_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auction" (
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
	"start_price_fen" bigint NOT NULL,
	"min_step_fen" bigint NOT NULL,
	"max_step_fen" bigint,
	"limit_price_fen" bigint,
	"deposit_fen" bigint NOT NULL,
	"enrol_deadline" timestamp with time zone NOT NULL,
	"bid_start" timestamp with time zone NOT NULL,
	"bid_end" timestamp with time zone NOT NULL,
	"extension_seconds" integer DEFAULT 120 NOT NULL,
	"current_end" timestamp with time zone NOT NULL,
	"price_type" text NOT NULL,
	"transport" text NOT NULL,
	"delivery_province" text NOT NULL,
	"delivery_city" text NOT NULL,
	"delivery_district" text NOT NULL,
	"delivery_place" text NOT NULL,
	"delivery_date_start" date NOT NULL,
	"delivery_date_end" date NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"reject_reason" text,
	"audit_time" timestamp with time zone,
	"audited_by" bigint,
	"hang_state" integer DEFAULT 0 NOT NULL,
	"best_price_fen" bigint,
	"best_bid_id" bigint,
	"best_enterprise_id" bigint,
	"bid_count" integer DEFAULT 0 NOT NULL,
	"enrol_count" integer DEFAULT 0 NOT NULL,
	"result" text,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auction_trade_no_unique" UNIQUE("trade_no"),
	CONSTRAINT "auction_money" CHECK ("auction"."start_price_fen" > 0 AND "auction"."min_step_fen" > 0 AND ("auction"."max_step_fen" IS NULL OR "auction"."max_step_fen" >= "auction"."min_step_fen") AND "auction"."deposit_fen" >= 0),
	CONSTRAINT "auction_times" CHECK ("auction"."enrol_deadline" <= "auction"."bid_start" AND "auction"."bid_start" < "auction"."bid_end" AND "auction"."current_end" >= "auction"."bid_end"),
	CONSTRAINT "auction_quantity" CHECK ("auction"."quantity_kg" > 0)
);
--> statement-breakpoint
ALTER TABLE "auction_bid" ADD CONSTRAINT "auction_bid_auction_id_auction_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bid" ADD CONSTRAINT "auction_bid_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_bid" ADD CONSTRAINT "auction_bid_user_id_sys_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_enrolment" ADD CONSTRAINT "auction_enrolment_auction_id_auction_id_fk" FOREIGN KEY ("auction_id") REFERENCES "public"."auction"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_enrolment" ADD CONSTRAINT "auction_enrolment_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction_enrolment" ADD CONSTRAINT "auction_enrolment_user_id_sys_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction" ADD CONSTRAINT "auction_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction" ADD CONSTRAINT "auction_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auction" ADD CONSTRAINT "auction_audited_by_sys_user_id_fk" FOREIGN KEY ("audited_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auction_bid_seq_uq" ON "auction_bid" USING btree ("auction_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "auction_enrolment_uq" ON "auction_enrolment" USING btree ("auction_id","enterprise_id");--> statement-breakpoint
CREATE UNIQUE INDEX "auction_enrolment_no_uq" ON "auction_enrolment" USING btree ("auction_id","bidder_no");--> statement-breakpoint
CREATE INDEX "auction_market_idx" ON "auction" USING btree ("status","hang_state","trade_type");--> statement-breakpoint
CREATE INDEX "auction_due_idx" ON "auction" USING btree ("hang_state","current_end");