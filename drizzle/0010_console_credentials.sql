CREATE TABLE "console_mail" (
	"id" text PRIMARY KEY NOT NULL,
	"integrator_id" text NOT NULL,
	"user_id" text,
	"kind" text NOT NULL,
	"email_to" text NOT NULL,
	"payload_enc" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "previous_token_hash" text;--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "previous_token_valid_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "token_seed_sha256" text;--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "previous_secret_enc" text;--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "previous_secret_valid_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrators" ADD COLUMN "secret_seed_sha256" text;--> statement-breakpoint
ALTER TABLE "console_mail" ADD CONSTRAINT "console_mail_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console_mail" ADD CONSTRAINT "console_mail_user_id_console_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."console_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "console_mail_due_idx" ON "console_mail" USING btree ("next_at") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "console_mail_user_idx" ON "console_mail" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
ALTER TABLE "integrators" ADD CONSTRAINT "integrators_previous_token_hash_unique" UNIQUE("previous_token_hash");