DROP INDEX "outbox_integrator_transaction_idx";--> statement-breakpoint
ALTER TABLE "outbox_events" ADD COLUMN "payment_id" text;--> statement-breakpoint
-- Hand-written: events written before this migration get the payment their data names.
UPDATE "outbox_events" SET "payment_id" = "data"->>'transaction_id' WHERE "data"->>'transaction_id' IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_integrator_payment_idx" ON "outbox_events" USING btree ("integrator_id","payment_id");
