CREATE TABLE "master_key_check" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"mac" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox_events" ALTER COLUMN "callback_state" SET DEFAULT 'no_destination';--> statement-breakpoint
ALTER TABLE "console_users" ADD COLUMN "role_seed" text;--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "seed_fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- Hand-written: events recorded before this migration without a callback URL take the new name.
UPDATE "outbox_events" SET "callback_state" = 'no_destination' WHERE "callback_state" = 'none';
