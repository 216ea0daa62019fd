CREATE TABLE "order_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"action" text NOT NULL,
	"actor_user_id" bigint,
	"actor_name" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trade_order" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"contract_id" bigint NOT NULL,
	"contract_no" text NOT NULL,
	"deal_id" bigint NOT NULL,
	"deal_no" text NOT NULL,
	"trade_no" text NOT NULL,
	"trade_type" integer NOT NULL,
	"seller_enterprise_id" bigint NOT NULL,
	"buyer_enterprise_id" bigint NOT NULL,
	"seller_name" text NOT NULL,
	"buyer_name" text NOT NULL,
	"transport_side" text NOT NULL,
	"product_name" text NOT NULL,
	"stock_code" text NOT NULL,
	"quality" jsonb NOT NULL,
	"quantity_kg" bigint NOT NULL,
	"price_fen" bigint NOT NULL,
	"amount_fen" bigint NOT NULL,
	"price_type" text NOT NULL,
	"terms" jsonb NOT NULL,
	"prepayment_fen" bigint NOT NULL,
	"payment_deadline" timestamp with time zone NOT NULL,
	"escrow_fen" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'unpaid' NOT NULL,
	"planned_kg" bigint DEFAULT 0 NOT NULL,
	"dispatched_trucks" integer DEFAULT 0 NOT NULL,
	"loaded_kg" bigint DEFAULT 0 NOT NULL,
	"loaded_trucks" integer DEFAULT 0 NOT NULL,
	"arrived_kg" bigint DEFAULT 0 NOT NULL,
	"arrived_trucks" integer DEFAULT 0 NOT NULL,
	"signed_kg" bigint DEFAULT 0 NOT NULL,
	"signed_trucks" integer DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone,
	"shipped_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"settlement_no" text,
	"settled_fen" bigint,
	"settled_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"terminated_at" timestamp with time zone,
	"terminate_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_order_order_no_unique" UNIQUE("order_no")
);
--> statement-breakpoint
CREATE TABLE "driver" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"name" text NOT NULL,
	"id_card_no" text NOT NULL,
	"mobile" text NOT NULL,
	"licence_no" text NOT NULL,
	"plate_no" text NOT NULL,
	"vehicle_type" text NOT NULL,
	"rated_load_kg" bigint NOT NULL,
	"id_card_file_id" bigint NOT NULL,
	"driving_licence_file_id" bigint NOT NULL,
	"vehicle_licence_file_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"audit_note" text DEFAULT '' NOT NULL,
	"audited_by" bigint,
	"audited_at" timestamp with time zone,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dispatch" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"dispatch_no" text NOT NULL,
	"order_id" bigint NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"driver_id" bigint NOT NULL,
	"driver_name" text NOT NULL,
	"driver_mobile" text NOT NULL,
	"driver_id_card_no" text NOT NULL,
	"plate_no" text NOT NULL,
	"vehicle_type" text NOT NULL,
	"rated_load_kg" bigint NOT NULL,
	"planned_kg" bigint NOT NULL,
	"plan_date" text NOT NULL,
	"gate_token" text NOT NULL,
	"status" text DEFAULT 'dispatched' NOT NULL,
	"loaded_net_kg" bigint,
	"arrived_net_kg" bigint,
	"loss_kg" bigint,
	"loss_exceeded" boolean DEFAULT false NOT NULL,
	"signed_kg" bigint,
	"loaded_at" timestamp with time zone,
	"arrived_at" timestamp with time zone,
	"auto_sign_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"signed_how" text,
	"dispute_reason" text,
	"dispute_file_ids" jsonb,
	"disputed_at" timestamp with time zone,
	"seller_answer" text,
	"answered_at" timestamp with time zone,
	"ruling_note" text,
	"ruled_by" bigint,
	"ruled_at" timestamp with time zone,
	"cancel_reason" text,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dispatch_dispatch_no_unique" UNIQUE("dispatch_no"),
	CONSTRAINT "dispatch_gate_token_unique" UNIQUE("gate_token")
);
--> statement-breakpoint
CREATE TABLE "quality_report" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"side" text NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"batch" text DEFAULT '' NOT NULL,
	"lab" text NOT NULL,
	"lab_name" text NOT NULL,
	"report_no" text NOT NULL,
	"qnet" bigint NOT NULL,
	"mt" numeric(5, 2) NOT NULL,
	"st" numeric(5, 2) NOT NULL,
	"ad" numeric(5, 2) NOT NULL,
	"vdaf" numeric(5, 2) NOT NULL,
	"tested_at" text NOT NULL,
	"file_id" bigint NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"answer_note" text DEFAULT '' NOT NULL,
	"answered_by" bigint,
	"answered_at" timestamp with time zone,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "weigh_ticket" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"dispatch_id" bigint NOT NULL,
	"order_id" bigint NOT NULL,
	"stage" text NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"ticket_no" text NOT NULL,
	"gross_kg" bigint NOT NULL,
	"tare_kg" bigint NOT NULL,
	"net_kg" bigint NOT NULL,
	"weighed_at" timestamp with time zone NOT NULL,
	"photo_file_id" bigint,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_event" ADD CONSTRAINT "order_event_order_id_trade_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."trade_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_event" ADD CONSTRAINT "order_event_actor_user_id_sys_user_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_order" ADD CONSTRAINT "trade_order_seller_enterprise_id_enterprise_id_fk" FOREIGN KEY ("seller_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_order" ADD CONSTRAINT "trade_order_buyer_enterprise_id_enterprise_id_fk" FOREIGN KEY ("buyer_enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver" ADD CONSTRAINT "driver_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver" ADD CONSTRAINT "driver_id_card_file_id_file_object_id_fk" FOREIGN KEY ("id_card_file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver" ADD CONSTRAINT "driver_driving_licence_file_id_file_object_id_fk" FOREIGN KEY ("driving_licence_file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver" ADD CONSTRAINT "driver_vehicle_licence_file_id_file_object_id_fk" FOREIGN KEY ("vehicle_licence_file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver" ADD CONSTRAINT "driver_audited_by_sys_user_id_fk" FOREIGN KEY ("audited_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver" ADD CONSTRAINT "driver_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatch" ADD CONSTRAINT "dispatch_order_id_trade_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."trade_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatch" ADD CONSTRAINT "dispatch_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatch" ADD CONSTRAINT "dispatch_ruled_by_sys_user_id_fk" FOREIGN KEY ("ruled_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatch" ADD CONSTRAINT "dispatch_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quality_report" ADD CONSTRAINT "quality_report_order_id_trade_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."trade_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quality_report" ADD CONSTRAINT "quality_report_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quality_report" ADD CONSTRAINT "quality_report_file_id_file_object_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quality_report" ADD CONSTRAINT "quality_report_answered_by_sys_user_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quality_report" ADD CONSTRAINT "quality_report_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weigh_ticket" ADD CONSTRAINT "weigh_ticket_dispatch_id_dispatch_id_fk" FOREIGN KEY ("dispatch_id") REFERENCES "public"."dispatch"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weigh_ticket" ADD CONSTRAINT "weigh_ticket_order_id_trade_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."trade_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weigh_ticket" ADD CONSTRAINT "weigh_ticket_enterprise_id_enterprise_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprise"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weigh_ticket" ADD CONSTRAINT "weigh_ticket_photo_file_id_file_object_id_fk" FOREIGN KEY ("photo_file_id") REFERENCES "public"."file_object"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weigh_ticket" ADD CONSTRAINT "weigh_ticket_created_by_sys_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."sys_user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_event_order_idx" ON "order_event" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_order_contract_uq" ON "trade_order" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "trade_order_seller_idx" ON "trade_order" USING btree ("seller_enterprise_id","id");--> statement-breakpoint
CREATE INDEX "trade_order_buyer_idx" ON "trade_order" USING btree ("buyer_enterprise_id","id");--> statement-breakpoint
CREATE INDEX "trade_order_status_deadline_idx" ON "trade_order" USING btree ("status","payment_deadline");--> statement-breakpoint
CREATE UNIQUE INDEX "driver_enterprise_id_card_uq" ON "driver" USING btree ("enterprise_id","id_card_no");--> statement-breakpoint
CREATE INDEX "driver_enterprise_idx" ON "driver" USING btree ("enterprise_id","id");--> statement-breakpoint
CREATE INDEX "driver_pending_idx" ON "driver" USING btree ("id") WHERE "driver"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "dispatch_order_idx" ON "dispatch" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "dispatch_enterprise_idx" ON "dispatch" USING btree ("enterprise_id","id");--> statement-breakpoint
CREATE INDEX "dispatch_auto_sign_idx" ON "dispatch" USING btree ("auto_sign_at") WHERE "dispatch"."status" = 'arrived';--> statement-breakpoint
CREATE INDEX "quality_report_order_idx" ON "quality_report" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "quality_report_no_uq" ON "quality_report" USING btree ("enterprise_id","report_no");--> statement-breakpoint
CREATE UNIQUE INDEX "weigh_ticket_stage_uq" ON "weigh_ticket" USING btree ("dispatch_id","stage");--> statement-breakpoint
CREATE UNIQUE INDEX "weigh_ticket_no_uq" ON "weigh_ticket" USING btree ("enterprise_id","ticket_no");--> statement-breakpoint
CREATE INDEX "weigh_ticket_order_idx" ON "weigh_ticket" USING btree ("order_id");