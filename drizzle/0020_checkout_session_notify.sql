-- The checkout page keeps the sessions it shows in memory on PGlite (src/domain/checkout/session-views.ts).
-- Any change to a session tells the process to forget them (LISTEN paylink_sessions). New sessions
-- need no notice: a token nobody has viewed is not kept.
CREATE FUNCTION paylink_sessions_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('paylink_sessions', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER checkout_sessions_notify AFTER UPDATE OR DELETE ON checkout_sessions FOR EACH STATEMENT EXECUTE FUNCTION paylink_sessions_notify();
