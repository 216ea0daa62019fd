ALTER TABLE "sys_role" ADD COLUMN "base_role" text DEFAULT 'trader' NOT NULL;--> statement-breakpoint
ALTER TABLE "sys_role" ADD COLUMN "builtin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sys_role" ADD COLUMN "description" text DEFAULT '' NOT NULL;