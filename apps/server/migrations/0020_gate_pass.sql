CREATE TABLE "gate_pass" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_id" text NOT NULL,
	"dispatch_id" bigint NOT NULL,
	"stage" text NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gate_pass_token_id_unique" UNIQUE("token_id")
);
--> statement-breakpoint
ALTER TABLE "weigh_ticket" ALTER COLUMN "created_by" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "weigh_ticket" ADD COLUMN "gate_pass_id" bigint;--> statement-breakpoint
ALTER TABLE "weigh_ticket" ADD COLUMN "recorder_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "gate_pass" ADD CONSTRAINT "gate_pass_dispatch_id_dispatch_id_fk" FOREIGN KEY ("dispatch_id") REFERENCES "public"."dispatch"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gate_pass" ADD CONSTRAINT "gate_pass_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gate_pass_dispatch_stage_uq" ON "gate_pass" USING btree ("dispatch_id","stage");