ALTER TABLE "card_registrations" ADD COLUMN "card_customer" text;--> statement-breakpoint
ALTER TABLE "card_registrations" ADD COLUMN "card_setup_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "card_registrations_setup_idx" ON "card_registrations" USING btree ("integrator_id","card_setup_id");