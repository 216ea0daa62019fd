CREATE TABLE "platform_secret" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_file" (
	"key" text PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- uncompressed out-of-line storage: reading a file 256 KiB at a time (substring) then fetches only those pages,
-- not the whole value decompressed (uploads are PDFs and images, which compress little anyway)
ALTER TABLE "stored_file" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
