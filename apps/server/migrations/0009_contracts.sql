CREATE TABLE "sys_holiday" (
	"day" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"workday" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sys_parameter" (
	"code" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contract_id" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"action" text NOT NULL,
	"actor_user_id" bigint,
	"actor_name" text NOT NULL,
	"note" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_signature" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contract_id" bigint NOT NULL,
	"side" text NOT NULL,
	"method" text NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"user_id" bigint,
	"enterprise_name" text NOT NULL,
	"signer_name" text NOT NULL,
	"signer_username" text NOT NULL,
	"certificate_serial" text,
	"certificate_summary" text,
	"pdf_sha256" text,
	"signed_at" timestamp with time zone NOT NULL,
	"cleared_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "contract_template" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"version" integer NOT NULL,
	"body" text NOT NULL,
	"created_by" bigint,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_upload" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contract_id" bigint NOT NULL,
	"side" text NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"file_id" bigint NOT NULL,
	"file_name" text NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"submitted_by" bigint NOT NULL,
	"submitted_by_name" text NOT NULL,
	"review_note" text DEFAULT '' NOT NULL,
	"reviewed_by" bigint,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contract_no" text NOT NULL,
	"deal_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"template_id" integer NOT NULL,
	"seller_enterprise_id" bigint NOT NULL,
	"buyer_enterprise_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"context" jsonb NOT NULL,
	"terms" jsonb NOT NULL,
	"text" jsonb NOT NULL,
	"pdf_key" text NOT NULL,
	"pdf_sha256" text NOT NULL,
	"sign_deadline" timestamp with time zone NOT NULL,
	"seller_signed_at" timestamp with time zone,
	"buyer_signed_at" timestamp with time zone,
	"effective_at" timestamp with time zone,
	"extended_at" timestamp with time zone,
	"extend_reason" text,
	"void_reason" text,
	"breach_by" text,
	"seller_deposit_id" bigint,
	"buyer_deposit_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_contract_no_unique" UNIQUE("contract_no")
);
--> statement-breakpoint
ALTER TABLE "sign_session" ADD COLUMN "purpose" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "contract_event" ADD CONSTRAINT "contract_event_contract_id_contract_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contract"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_event" ADD CONSTRAINT "contract_event_actor_user_id_sys_user_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_signature" ADD CONSTRAINT "contract_signature_contract_id_contract_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contract"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_signature" ADD CONSTRAINT "contract_signature_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_signature" ADD CONSTRAINT "contract_signature_user_id_sys_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_template" ADD CONSTRAINT "contract_template_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_upload" ADD CONSTRAINT "contract_upload_contract_id_contract_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contract"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_upload" ADD CONSTRAINT "contract_upload_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_upload" ADD CONSTRAINT "contract_upload_file_id_file_object_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_upload" ADD CONSTRAINT "contract_upload_submitted_by_sys_user_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_upload" ADD CONSTRAINT "contract_upload_reviewed_by_sys_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract" ADD CONSTRAINT "contract_deal_id_deal_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deal"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract" ADD CONSTRAINT "contract_template_id_contract_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."contract_template"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract" ADD CONSTRAINT "contract_seller_enterprise_id_enterprise_id_fk" FOREIGN KEY ("seller_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract" ADD CONSTRAINT "contract_buyer_enterprise_id_enterprise_id_fk" FOREIGN KEY ("buyer_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_event_contract_idx" ON "contract_event" USING btree ("contract_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "contract_signature_live_uq" ON "contract_signature" USING btree ("contract_id","side") WHERE "contract_signature"."cleared_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "contract_template_kind_version_uq" ON "contract_template" USING btree ("kind","version");--> statement-breakpoint
CREATE INDEX "contract_upload_contract_idx" ON "contract_upload" USING btree ("contract_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contract_upload_pending_uq" ON "contract_upload" USING btree ("contract_id") WHERE "contract_upload"."status" = 'submitted';--> statement-breakpoint
CREATE UNIQUE INDEX "contract_deal_uq" ON "contract" USING btree ("deal_id");--> statement-breakpoint
CREATE INDEX "contract_seller_idx" ON "contract" USING btree ("seller_enterprise_id","id");--> statement-breakpoint
CREATE INDEX "contract_buyer_idx" ON "contract" USING btree ("buyer_enterprise_id","id");--> statement-breakpoint
CREATE INDEX "contract_status_deadline_idx" ON "contract" USING btree ("status","sign_deadline");