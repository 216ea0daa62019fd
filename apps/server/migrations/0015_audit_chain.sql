-- 审计链 (issue 27 item 3, README "审计链"): the audit trail becomes a hash chain. Rows are still inserted as before
-- (chain_seq and hash NULL); the chaining step (modules/audit/audit-chain.ts) later gives each row, once, its place
-- and its hash:
--   hash = hex(SHA-256(UTF-8(previous row's hash ‖ canonical text of the row))), the first row's previous hash being
--   64 zeros, and the canonical text (to_jsonb(row) minus hash and chain_seq)::text with TimeZone UTC.
-- Written by hand: these columns are filled only by the chaining step's SQL, so the Drizzle schema (which the insert
-- path uses) does not list them, and drizzle-kit leaves them alone.
ALTER TABLE "sys_audit_log" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
ALTER TABLE "sys_audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "sys_audit_log_chain_seq_idx" ON "sys_audit_log" USING btree ("chain_seq");--> statement-breakpoint
-- the rows still waiting for the chain: the scheduler asks for them every round
CREATE INDEX "sys_audit_log_unchained_idx" ON "sys_audit_log" USING btree ("id") WHERE "chain_seq" IS NULL;--> statement-breakpoint
-- Still append-only, with one exception: the chaining step fills chain_seq and hash of a row that has neither, and
-- changes nothing else (compared over every column, so columns added later are covered too). DELETE and TRUNCATE
-- stay refused.
CREATE OR REPLACE FUNCTION sys_audit_log_refuse_change() RETURNS trigger AS $$
BEGIN
  -- nested: a statement trigger (TRUNCATE) has no OLD row to look at
  IF TG_OP = 'UPDATE' THEN
    IF OLD.chain_seq IS NULL AND OLD.hash IS NULL AND NEW.chain_seq IS NOT NULL AND NEW.hash IS NOT NULL
      AND (to_jsonb(NEW) - 'chain_seq' - 'hash') = (to_jsonb(OLD) - 'chain_seq' - 'hash') THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'sys_audit_log is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The columns the canonical text covers, from a chain position on: a column added to sys_audit_log later is left out
-- of the rows chained before it existed (they never had its value), and covered from the next row chained. Changing
-- this table cannot make a changed row verify: its canonical text would differ from the one that was hashed.
CREATE TABLE "sys_audit_chain_columns" (
  "from_chain_seq" bigint PRIMARY KEY NOT NULL,
  "columns" text[] NOT NULL
);
--> statement-breakpoint
-- Each seal: the chain head (last position and its hash) at the time, with the RFC 3161 timestamp token a
-- time-stamping authority gave for SHA-256 of the head hash's 64 hex characters. daily_for: the Asia/Shanghai day of
-- a daily seal (one a day), NULL for a seal made on demand.
CREATE TABLE "sys_audit_seal" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "sealed_at" timestamp with time zone DEFAULT now() NOT NULL,
  "daily_for" date,
  "chain_seq" bigint NOT NULL,
  "head_hash" text NOT NULL,
  "tsa_url" text NOT NULL,
  "token" bytea NOT NULL,
  CONSTRAINT "sys_audit_seal_daily_for_unique" UNIQUE("daily_for")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sys_audit_seal_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'sys_audit_seal is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER sys_audit_seal_append_only BEFORE UPDATE OR DELETE ON sys_audit_seal
  FOR EACH ROW EXECUTE FUNCTION sys_audit_seal_refuse_change();
--> statement-breakpoint
CREATE TRIGGER sys_audit_seal_no_truncate BEFORE TRUNCATE ON sys_audit_seal
  FOR EACH STATEMENT EXECUTE FUNCTION sys_audit_seal_refuse_change();
