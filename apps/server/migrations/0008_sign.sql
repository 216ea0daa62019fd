CREATE TABLE "sign_session" (
	"id" uuid PRIMARY KEY NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"certificate_der" text NOT NULL,
	"file_name" text NOT NULL,
	"prepared_key" text NOT NULL,
	"byte_range" text NOT NULL,
	"signed_attributes_der" text NOT NULL,
	"signing_time" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"signature_index" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signed_document" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"file_id" bigint NOT NULL,
	"file_name" text NOT NULL,
	"sha256" text NOT NULL,
	"signer_name" text NOT NULL,
	"signer_username" text NOT NULL,
	"enterprise_name" text NOT NULL,
	"certificate_serial" text NOT NULL,
	"reason" text NOT NULL,
	"signature_index" integer NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signed_document_session_id_unique" UNIQUE("session_id"),
	CONSTRAINT "signed_document_index_positive" CHECK ("signed_document"."signature_index" >= 1)
);
--> statement-breakpoint
ALTER TABLE "sign_session" ADD CONSTRAINT "sign_session_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_session" ADD CONSTRAINT "sign_session_user_id_sys_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_document" ADD CONSTRAINT "signed_document_session_id_sign_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sign_session"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_document" ADD CONSTRAINT "signed_document_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_document" ADD CONSTRAINT "signed_document_user_id_sys_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signed_document" ADD CONSTRAINT "signed_document_file_id_file_object_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_session_user_idx" ON "sign_session" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "signed_document_enterprise_idx" ON "signed_document" USING btree ("enterprise_id","signed_at");