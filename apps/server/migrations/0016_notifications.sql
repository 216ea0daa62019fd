CREATE TABLE "msg_delivery" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" bigint NOT NULL,
	"channel" text NOT NULL,
	"address" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "msg_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_key" text NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"processed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "msg_user_setting" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"preferences" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "msg_message" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"event_key" text NOT NULL,
	"kind" text NOT NULL,
	"category" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"due_at" timestamp with time zone,
	"link" text,
	"urgent" boolean DEFAULT false NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "msg_webhook_attempt" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "msg_webhook_delivery" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" integer NOT NULL,
	"message_id" text NOT NULL,
	"event_key" text NOT NULL,
	"event_type" text NOT NULL,
	"body" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "msg_webhook_endpoint" (
	"id" serial PRIMARY KEY NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"event_types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret" text NOT NULL,
	"failing_since" timestamp with time zone,
	"disabled_reason" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "msg_delivery_message_channel_idx" ON "msg_delivery" USING btree ("message_id","channel");--> statement-breakpoint
CREATE INDEX "msg_delivery_due_idx" ON "msg_delivery" USING btree ("next_attempt_at") WHERE state = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "msg_event_key_idx" ON "msg_event" USING btree ("event_key");--> statement-breakpoint
CREATE INDEX "msg_event_pending_idx" ON "msg_event" USING btree ("id") WHERE processed_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "msg_message_event_user_idx" ON "msg_message" USING btree ("event_key","user_id");--> statement-breakpoint
CREATE INDEX "msg_message_user_idx" ON "msg_message" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "msg_message_unread_idx" ON "msg_message" USING btree ("user_id") WHERE read_at IS NULL;--> statement-breakpoint
CREATE INDEX "msg_webhook_attempt_delivery_idx" ON "msg_webhook_attempt" USING btree ("delivery_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "msg_webhook_delivery_endpoint_event_idx" ON "msg_webhook_delivery" USING btree ("endpoint_id","event_key");--> statement-breakpoint
CREATE INDEX "msg_webhook_delivery_due_idx" ON "msg_webhook_delivery" USING btree ("next_attempt_at") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "msg_webhook_delivery_endpoint_idx" ON "msg_webhook_delivery" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "msg_webhook_endpoint_enterprise_idx" ON "msg_webhook_endpoint" USING btree ("enterprise_id");