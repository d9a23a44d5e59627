DROP INDEX "outbox_integrator_transaction_idx";--> statement-breakpoint
ALTER TABLE "outbox_events" ADD COLUMN "payment_id" text;--> statement-breakpoint
ALTER TABLE "outbox_events" ADD COLUMN "email_view" jsonb;--> statement-breakpoint
-- Hand-written: events written before this migration get the payment their data names.
UPDATE "outbox_events" SET "payment_id" = "data"->>'transaction_id' WHERE "data"->>'transaction_id' IS NOT NULL;--> statement-breakpoint
-- Hand-written: e-mails of events written before this migration say what their data says.
UPDATE "outbox_events" SET "email_view" = jsonb_build_object(
  'amount', CASE WHEN "type" LIKE 'refund.%' THEN coalesce("data"->>'refund_amount', "data"->>'amount') ELSE "data"->>'amount' END,
  'currency', "data"->>'currency',
  'card', CASE WHEN jsonb_typeof("data"->'card') = 'object' THEN jsonb_build_object('brand', "data"->'card'->'brand', 'last4', "data"->'card'->'last4') END,
  'transactionId', "data"->>'transaction_id',
  'refundId', "data"->>'refund_id',
  'scheduleReference', "data"->>'schedule_reference',
  'merchantReferenceId', "data"->>'merchant_reference_id',
  'description', "data"->>'description',
  'failureMessage', "data"->>'failure_message',
  'payLink', CASE WHEN "type" = 'schedule.payment_link_sent' THEN jsonb_build_object('url', "data"->>'payment_url', 'expiresAt', "data"->>'expires_at', 'reason', "data"->>'reason') END
) WHERE "email_to" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_integrator_payment_idx" ON "outbox_events" USING btree ("integrator_id","payment_id");
