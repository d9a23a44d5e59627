ALTER TABLE "links" ADD COLUMN "subscription" jsonb;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "link_id" text;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "cycles_left" integer;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "cancel_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE no action ON UPDATE no action;