CREATE TABLE "ukey_certificate" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" bigint NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"serial_number" text NOT NULL,
	"subject" text NOT NULL,
	"issuer" text NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"fingerprint" text NOT NULL,
	"key_id" text NOT NULL,
	"der" text NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text,
	"issued_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ukey_challenge" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"action" text NOT NULL,
	"payload_hash" text NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"device_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ukey_device" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"pending_csr" text,
	"pending_key_id" text,
	"requested_at" timestamp with time zone NOT NULL,
	"current_certificate_id" bigint,
	"reject_reason" text,
	"decided_by" bigint,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ukey_device_status" CHECK ("ukey_device"."status" IN ('pending', 'active', 'renewing', 'rejected', 'revoked'))
);
--> statement-breakpoint
ALTER TABLE "ukey_certificate" ADD CONSTRAINT "ukey_certificate_device_id_ukey_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."ukey_device"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ukey_certificate" ADD CONSTRAINT "ukey_certificate_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ukey_certificate" ADD CONSTRAINT "ukey_certificate_user_id_sys_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ukey_certificate" ADD CONSTRAINT "ukey_certificate_issued_by_sys_user_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ukey_challenge" ADD CONSTRAINT "ukey_challenge_user_id_sys_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ukey_challenge" ADD CONSTRAINT "ukey_challenge_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ukey_challenge" ADD CONSTRAINT "ukey_challenge_device_id_ukey_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."ukey_device"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ukey_device" ADD CONSTRAINT "ukey_device_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ukey_device" ADD CONSTRAINT "ukey_device_user_id_sys_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ukey_device" ADD CONSTRAINT "ukey_device_decided_by_sys_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ukey_certificate_serial_uq" ON "ukey_certificate" USING btree ("serial_number");--> statement-breakpoint
CREATE INDEX "ukey_certificate_device_idx" ON "ukey_certificate" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "ukey_challenge_user_idx" ON "ukey_challenge" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "ukey_device_enterprise_idx" ON "ukey_device" USING btree ("enterprise_id");