ALTER TABLE "card_registrations" ADD COLUMN "forget_next_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "card_registrations" ADD COLUMN "forget_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "card_registrations_forget_idx" ON "card_registrations" USING btree ("forget_next_at") WHERE "card_registrations"."forget_next_at" is not null;