CREATE TABLE "banner" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"image_url" text NOT NULL,
	"detail_page_url" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"body_html" text DEFAULT '' NOT NULL,
	"enclosure" text,
	"effective_time" timestamp with time zone NOT NULL,
	"expiration_time" timestamp with time zone,
	"status" text DEFAULT 'draft' NOT NULL,
	"published_at" timestamp with time zone,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_index" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"current_year" integer NOT NULL,
	"current_term" integer NOT NULL,
	"total_term" integer NOT NULL,
	"quote_date" text NOT NULL,
	"price_fen" bigint NOT NULL,
	"rise_fen" bigint NOT NULL,
	"deal_count" integer DEFAULT 0 NOT NULL,
	"deal_tonnage_kg" bigint DEFAULT 0 NOT NULL,
	"published_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trade_recommendation" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trade_kind" text NOT NULL,
	"trade_no" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content" ADD CONSTRAINT "content_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_index" ADD CONSTRAINT "market_index_published_by_sys_user_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_recommendation" ADD CONSTRAINT "trade_recommendation_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_index_term_uq" ON "market_index" USING btree ("current_year","current_term");--> statement-breakpoint
CREATE UNIQUE INDEX "market_index_total_uq" ON "market_index" USING btree ("total_term");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_recommendation_uq" ON "trade_recommendation" USING btree ("trade_no");