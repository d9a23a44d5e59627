-- Payment pages keep active links in memory (src/domain/links/link-views.ts). Any write to a link or
-- to a merchant tells every process to forget them (LISTEN paylink_links): NOTIFY is delivered on
-- commit, once per transaction, at no extra round trip for the writer.
CREATE FUNCTION paylink_links_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('paylink_links', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER links_notify AFTER INSERT OR UPDATE OR DELETE ON links FOR EACH STATEMENT EXECUTE FUNCTION paylink_links_notify();
--> statement-breakpoint
CREATE TRIGGER integrators_notify AFTER INSERT OR UPDATE OR DELETE ON integrators FOR EACH STATEMENT EXECUTE FUNCTION paylink_links_notify();
