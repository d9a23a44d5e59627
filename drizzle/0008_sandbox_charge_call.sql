-- The sandbox acquirer's charge, recorded in one call (one round trip, like a real acquirer's HTTP
-- call). The outcome is decided by src/acquirer/sandbox.ts from the test card; this records it
-- once per idempotency key: under an advisory lock on the key, a key seen before returns its first
-- outcome (and a key reused for another request is refused); a new one stores the charge, if it
-- succeeded, and the outcome.
CREATE FUNCTION paylink_sandbox_charge(p_key text, p_request_hash text, p_outcome jsonb, p_charge_id text, p_amount bigint, p_currency text, p_behaviour text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  prior sandbox_operations%ROWTYPE;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('sandbox:' || p_key, 0));
  SELECT * INTO prior FROM sandbox_operations WHERE idempotency_key = p_key;
  IF FOUND THEN
    IF prior.operation <> 'charge' OR prior.request_hash <> p_request_hash THEN
      RAISE EXCEPTION 'sandbox: idempotency key reused for a different charge request';
    END IF;
    RETURN prior.result;
  END IF;
  IF p_outcome->>'status' = 'succeeded' THEN
    INSERT INTO sandbox_charges (id, amount_minor, currency, behaviour) VALUES (p_charge_id, p_amount, p_currency, p_behaviour);
  END IF;
  INSERT INTO sandbox_operations (idempotency_key, operation, request_hash, result) VALUES (p_key, 'charge', p_request_hash, p_outcome);
  RETURN p_outcome;
END
$$;
