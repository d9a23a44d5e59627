-- An outbox insert wakes only the workers that have something to deliver: 'callback' when a new
-- event has a callback to POST, 'email' when it has an e-mail to send (the payload says which),
-- and nobody for an event that is only kept for the events API. Before, every insert woke both
-- workers of every process, and each ran a claim that found nothing (two queries per refund).
CREATE OR REPLACE FUNCTION paylink_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_events WHERE callback_state = 'pending') THEN
    PERFORM pg_notify('paylink_outbox', 'callback');
  END IF;
  IF EXISTS (SELECT 1 FROM new_events WHERE email_state = 'pending') THEN
    PERFORM pg_notify('paylink_outbox', 'email');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER outbox_events_notify ON outbox_events;
--> statement-breakpoint
CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION paylink_outbox_notify();
