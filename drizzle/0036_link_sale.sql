ALTER TABLE "checkout_sessions" ADD COLUMN "items" jsonb;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "questions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "items" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "tip" jsonb;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "promotion_codes" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "sale" jsonb;