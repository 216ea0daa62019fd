CREATE TABLE "sys_area" (
	"code" text PRIMARY KEY NOT NULL,
	"parent_code" text,
	"name" text NOT NULL,
	"level" smallint NOT NULL,
	"leaf" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enterprise_attachment" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"file_id" bigint NOT NULL,
	"replaced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enterprise_change_request" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"organ_name" text NOT NULL,
	"credit_code" text NOT NULL,
	"legal_person" text NOT NULL,
	"bank_name" text NOT NULL,
	"bank_branch" text NOT NULL,
	"bank_account_no" text NOT NULL,
	"licence_file_id" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"applied_by" bigint NOT NULL,
	"reviewed_by" bigint,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sys_sms_code" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"mobile" text NOT NULL,
	"scene" text NOT NULL,
	"code_hash" text NOT NULL,
	"salt" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"wrong_tries" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"ip" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sys_sms_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"mobile" text NOT NULL,
	"scene" text NOT NULL,
	"content" text NOT NULL,
	"provider" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "file_object" ALTER COLUMN "uploaded_by" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprise" ADD COLUMN "area_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprise" ADD COLUMN "area_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprise" ADD COLUMN "address_detail" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprise" ADD COLUMN "contact_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprise" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "file_object" ADD COLUMN "scene" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "enterprise_attachment" ADD CONSTRAINT "enterprise_attachment_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_attachment" ADD CONSTRAINT "enterprise_attachment_file_id_file_object_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_change_request" ADD CONSTRAINT "enterprise_change_request_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_change_request" ADD CONSTRAINT "enterprise_change_request_licence_file_id_file_object_id_fk" FOREIGN KEY ("licence_file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_change_request" ADD CONSTRAINT "enterprise_change_request_applied_by_sys_user_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_change_request" ADD CONSTRAINT "enterprise_change_request_reviewed_by_sys_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sys_area_parent_idx" ON "sys_area" USING btree ("parent_code");--> statement-breakpoint
CREATE INDEX "enterprise_attachment_enterprise_idx" ON "enterprise_attachment" USING btree ("enterprise_id");--> statement-breakpoint
CREATE UNIQUE INDEX "enterprise_change_one_pending_uq" ON "enterprise_change_request" USING btree ("enterprise_id") WHERE "enterprise_change_request"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "sys_sms_code_mobile_idx" ON "sys_sms_code" USING btree ("mobile","created_at");--> statement-breakpoint
CREATE INDEX "sys_sms_outbox_mobile_idx" ON "sys_sms_outbox" USING btree ("mobile","created_at");