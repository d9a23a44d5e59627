CREATE TABLE "integrator_acquirers" (
	"integrator_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"public_key" text,
	"secret_key_enc" text,
	"webhook_secret_enc" text,
	"api_base_url" text,
	"hosted_checkout" boolean DEFAULT false NOT NULL,
	"webhook_id" text NOT NULL,
	"seed_sha256" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integrator_acquirers_webhook_id_unique" UNIQUE("webhook_id")
);
--> statement-breakpoint
CREATE TABLE "provider_webhook_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"integrator_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "provider_webhook_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "provider_payment_id" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "provider_attempt" jsonb;--> statement-breakpoint
ALTER TABLE "integrator_acquirers" ADD CONSTRAINT "integrator_acquirers_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_webhook_events" ADD CONSTRAINT "provider_webhook_events_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_sessions_provider_payment_idx" ON "checkout_sessions" USING btree ("provider_payment_id");