ALTER TABLE "card_registrations" ADD COLUMN "collection" text DEFAULT 'saved_card' NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "schedule_run_id" text;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD COLUMN "checkout_session_id" text;--> statement-breakpoint
CREATE INDEX "schedule_runs_awaiting_idx" ON "schedule_runs" USING btree ("next_attempt_at") WHERE status = 'awaiting_customer';--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_schedule_run_id_unique" UNIQUE("schedule_run_id");--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_checkout_session_id_unique" UNIQUE("checkout_session_id");