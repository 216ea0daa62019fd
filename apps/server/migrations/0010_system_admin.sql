CREATE TABLE "sys_audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" bigint,
	"username" text DEFAULT '' NOT NULL,
	"enterprise_id" bigint,
	"enterprise_name" text DEFAULT '' NOT NULL,
	"role" text DEFAULT '' NOT NULL,
	"action" text NOT NULL,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"object_type" text DEFAULT '' NOT NULL,
	"object_id" text DEFAULT '' NOT NULL,
	"changes" jsonb,
	"body" jsonb,
	"result" text NOT NULL,
	"error_code" text DEFAULT '' NOT NULL,
	"status_code" integer NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"request_id" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sys_dict_item" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sys_role" ADD COLUMN "base_role" text DEFAULT 'trader' NOT NULL;--> statement-breakpoint
ALTER TABLE "sys_role" ADD COLUMN "builtin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sys_role" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "sys_audit_log_at_idx" ON "sys_audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "sys_audit_log_user_idx" ON "sys_audit_log" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "sys_audit_log_enterprise_idx" ON "sys_audit_log" USING btree ("enterprise_id","at");--> statement-breakpoint
-- Added by hand: the audit trail is append-only, like the funds journal (0002). TRUNCATE is refused too.
CREATE OR REPLACE FUNCTION sys_audit_log_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'sys_audit_log is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER sys_audit_log_append_only BEFORE UPDATE OR DELETE ON sys_audit_log
  FOR EACH ROW EXECUTE FUNCTION sys_audit_log_refuse_change();
--> statement-breakpoint
CREATE TRIGGER sys_audit_log_no_truncate BEFORE TRUNCATE ON sys_audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION sys_audit_log_refuse_change();
