CREATE TABLE "enterprise_suspension" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"reason" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by" bigint NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by" bigint,
	"lift_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fund_reconciliation" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" text NOT NULL,
	"balanced" boolean NOT NULL,
	"difference_fen" bigint NOT NULL,
	"figures" jsonb NOT NULL,
	"made_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fund_reconciliation_day_unique" UNIQUE("day")
);
--> statement-breakpoint
CREATE TABLE "market_index_sample" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"index_id" bigint NOT NULL,
	"deal_id" bigint NOT NULL,
	"included" boolean NOT NULL,
	"exclusion_reason" text,
	"price_fen" bigint NOT NULL,
	"quantity_kg" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_report" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"report_date" text NOT NULL,
	"figures" jsonb NOT NULL,
	"pdf_file_id" bigint NOT NULL,
	"xlsx_file_id" bigint NOT NULL,
	"made_by" bigint,
	"made_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "daily_report_report_date_unique" UNIQUE("report_date")
);
--> statement-breakpoint
ALTER TABLE "auction" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "auction" ADD COLUMN "paused_remaining_ms" bigint;--> statement-breakpoint
ALTER TABLE "auction" ADD COLUMN "operator_reason" text;--> statement-breakpoint
ALTER TABLE "auction" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "enterprise_suspension" ADD CONSTRAINT "enterprise_suspension_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_suspension" ADD CONSTRAINT "enterprise_suspension_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_suspension" ADD CONSTRAINT "enterprise_suspension_lifted_by_sys_user_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_index_sample" ADD CONSTRAINT "market_index_sample_index_id_market_index_id_fk" FOREIGN KEY ("index_id") REFERENCES "public"."market_index"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_index_sample" ADD CONSTRAINT "market_index_sample_deal_id_deal_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deal"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_report" ADD CONSTRAINT "daily_report_pdf_file_id_file_object_id_fk" FOREIGN KEY ("pdf_file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_report" ADD CONSTRAINT "daily_report_xlsx_file_id_file_object_id_fk" FOREIGN KEY ("xlsx_file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_report" ADD CONSTRAINT "daily_report_made_by_sys_user_id_fk" FOREIGN KEY ("made_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enterprise_suspension_enterprise_idx" ON "enterprise_suspension" USING btree ("enterprise_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "market_index_sample_uq" ON "market_index_sample" USING btree ("index_id","deal_id");