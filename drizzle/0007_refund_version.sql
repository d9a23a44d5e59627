ALTER TABLE "payments" ADD COLUMN "refund_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The sandbox acquirer's refund, as one call (one round trip, like a real acquirer's HTTP call):
-- the same steps src/acquirer/sandbox.ts ran as a transaction of six statements. Each statement
-- in a plpgsql function sees what committed before it, so after the advisory lock on the key a
-- concurrent call with the same key finds the first one's recorded result.
CREATE FUNCTION paylink_sandbox_refund(p_key text, p_request_hash text, p_charge_id text, p_amount bigint, p_currency text, p_refund_id text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  prior sandbox_operations%ROWTYPE;
  charge sandbox_charges%ROWTYPE;
  outcome jsonb;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('sandbox:' || p_key, 0));
  SELECT * INTO prior FROM sandbox_operations WHERE idempotency_key = p_key;
  IF FOUND THEN
    IF prior.operation <> 'refund' OR prior.request_hash <> p_request_hash THEN
      RAISE EXCEPTION 'sandbox: idempotency key reused for a different refund request';
    END IF;
    RETURN prior.result;
  END IF;
  SELECT * INTO charge FROM sandbox_charges WHERE id = p_charge_id;
  IF NOT FOUND THEN
    outcome := jsonb_build_object('status', 'failed', 'code', 'charge_not_found', 'message', 'The acquirer has no such charge.');
  ELSIF charge.currency <> p_currency THEN
    outcome := jsonb_build_object('status', 'failed', 'code', 'currency_mismatch', 'message', 'The refund currency differs from the charge.');
  ELSIF charge.behaviour = 'refund_fails' THEN
    outcome := jsonb_build_object('status', 'failed', 'code', 'refund_not_supported', 'message', 'The card issuer does not accept refunds to this card.');
  ELSE
    UPDATE sandbox_charges SET refunded_minor = refunded_minor + p_amount
      WHERE id = p_charge_id AND refunded_minor + p_amount <= amount_minor;
    IF FOUND THEN
      outcome := jsonb_build_object('status', 'succeeded', 'refundId', p_refund_id);
    ELSE
      outcome := jsonb_build_object('status', 'failed', 'code', 'amount_exceeds_charge', 'message', 'The refund exceeds what remains of the charge.');
    END IF;
  END IF;
  INSERT INTO sandbox_operations (idempotency_key, operation, request_hash, result) VALUES (p_key, 'refund', p_request_hash, outcome);
  RETURN outcome;
END
$$;
