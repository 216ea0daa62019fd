-- The funds journal is append-only: a movement is corrected by a new movement, never by editing history.
CREATE OR REPLACE FUNCTION fund_journal_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'fund_journal is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER fund_journal_append_only BEFORE UPDATE OR DELETE ON fund_journal
  FOR EACH ROW EXECUTE FUNCTION fund_journal_refuse_change();
