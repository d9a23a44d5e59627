ALTER TABLE "schedules" ADD COLUMN "every" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "anchor_at" timestamp with time zone;