ALTER TABLE "integrators" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "default_callback_url" text;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "max_payments" integer;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "success_url" text;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "cancel_url" text;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "locale" text;