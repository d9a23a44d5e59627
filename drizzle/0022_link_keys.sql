ALTER TABLE "integrators" ADD COLUMN "link_key_hash" text;--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "link_key_enc" text;--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "previous_link_key_hash" text;--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "previous_link_key_valid_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "link_key_seed_sha256" text;--> statement-breakpoint
ALTER TABLE "integrators" ADD CONSTRAINT "integrators_link_key_hash_unique" UNIQUE("link_key_hash");--> statement-breakpoint
ALTER TABLE "integrators" ADD CONSTRAINT "integrators_previous_link_key_hash_unique" UNIQUE("previous_link_key_hash");