ALTER TABLE "integrator_acquirers" ADD COLUMN "qr_expiry_seconds" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payment_bank" text;