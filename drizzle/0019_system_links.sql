ALTER TABLE "links" ADD COLUMN "system" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The "Scheduled payment" links made before this migration become system links again as made: active, dynamic-only, no expiry or limit.
UPDATE "links" SET "system" = true, "active" = true, "fields" = '{"customer.contact.email":"system"}'::jsonb, "expires_at" = NULL, "max_payments" = NULL WHERE "slug" = 'scheduled-payments-' || left(encode(sha256(convert_to('paylink-schedule-link:' || "integrator_id", 'UTF8')), 'hex'), 16);
