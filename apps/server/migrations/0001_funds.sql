CREATE TABLE "fund_deposit_in" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"bank_name" text NOT NULL,
	"payer_account_no" text NOT NULL,
	"transfer_date" text NOT NULL,
	"voucher_url" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reject_reason" text,
	"request_id" text NOT NULL,
	"applied_by" bigint NOT NULL,
	"reviewed_by" bigint,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fund_deposit_in_amount_positive" CHECK ("fund_deposit_in"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "fund_account" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"available" bigint DEFAULT 0 NOT NULL,
	"frozen" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fund_account_enterprise_id_unique" UNIQUE("enterprise_id"),
	CONSTRAINT "fund_account_available_nonneg" CHECK ("fund_account"."available" >= 0),
	CONSTRAINT "fund_account_frozen_nonneg" CHECK ("fund_account"."frozen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "fund_journal" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"available_after" bigint NOT NULL,
	"frozen_after" bigint NOT NULL,
	"ref_type" text NOT NULL,
	"ref_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fund_journal_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "fund_journal_amount_positive" CHECK ("fund_journal"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "fund_pay_password" (
	"enterprise_id" bigint PRIMARY KEY NOT NULL,
	"password_hash" text NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fund_trade_deposit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"trade_kind" text NOT NULL,
	"trade_id" text NOT NULL,
	"ref_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'frozen' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fund_trade_deposit_amount_positive" CHECK ("fund_trade_deposit"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "fund_withdrawal" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"bank_name" text NOT NULL,
	"bank_branch" text NOT NULL,
	"bank_account_no" text NOT NULL,
	"account_name" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reject_reason" text,
	"request_id" text NOT NULL,
	"applied_by" bigint NOT NULL,
	"reviewed_by" bigint,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fund_withdrawal_amount_positive" CHECK ("fund_withdrawal"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "enterprise" ADD COLUMN "bank_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprise" ADD COLUMN "bank_branch" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprise" ADD COLUMN "bank_account_no" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "fund_deposit_in" ADD CONSTRAINT "fund_deposit_in_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_deposit_in" ADD CONSTRAINT "fund_deposit_in_applied_by_sys_user_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_deposit_in" ADD CONSTRAINT "fund_deposit_in_reviewed_by_sys_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_account" ADD CONSTRAINT "fund_account_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_journal" ADD CONSTRAINT "fund_journal_account_id_fund_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."fund_account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_journal" ADD CONSTRAINT "fund_journal_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_journal" ADD CONSTRAINT "fund_journal_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_pay_password" ADD CONSTRAINT "fund_pay_password_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_trade_deposit" ADD CONSTRAINT "fund_trade_deposit_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_withdrawal" ADD CONSTRAINT "fund_withdrawal_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_withdrawal" ADD CONSTRAINT "fund_withdrawal_applied_by_sys_user_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_withdrawal" ADD CONSTRAINT "fund_withdrawal_reviewed_by_sys_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fund_deposit_in_request_uq" ON "fund_deposit_in" USING btree ("enterprise_id","request_id");--> statement-breakpoint
CREATE INDEX "fund_journal_enterprise_idx" ON "fund_journal" USING btree ("enterprise_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fund_trade_deposit_ref_uq" ON "fund_trade_deposit" USING btree ("trade_kind","ref_id");--> statement-breakpoint
CREATE INDEX "fund_trade_deposit_enterprise_idx" ON "fund_trade_deposit" USING btree ("enterprise_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fund_withdrawal_request_uq" ON "fund_withdrawal" USING btree ("enterprise_id","request_id");