-- A written outbox event wakes the callback and e-mail workers of every process at once (LISTEN
-- paylink_outbox), instead of waiting up to one poll interval. NOTIFY is delivered on commit and
-- deduplicated within a transaction, and costs the writer no extra round trip.
CREATE FUNCTION paylink_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('paylink_outbox', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events FOR EACH STATEMENT EXECUTE FUNCTION paylink_outbox_notify();
