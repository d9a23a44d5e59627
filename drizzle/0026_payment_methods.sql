ALTER TABLE "integrators" ADD COLUMN "default_payment_methods" jsonb;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "payment_methods" jsonb;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payment_method" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
CREATE INDEX "payments_integrator_method_idx" ON "payments" USING btree ("integrator_id","payment_method","created_at","id");