CREATE TABLE "assets" (
	"id" text PRIMARY KEY NOT NULL,
	"integrator_id" text NOT NULL,
	"content_type" text NOT NULL,
	"sha256" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_registrations" (
	"reference" uuid PRIMARY KEY NOT NULL,
	"integrator_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"page_token_hash" text,
	"customer_name" text,
	"customer_email" text,
	"callback_url" text,
	"return_url" text,
	"card_token" text,
	"brand" text,
	"last4" text,
	"exp_month" integer,
	"exp_year" integer,
	"fingerprint" text,
	"holder_name" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activated_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "card_registrations_page_token_hash_unique" UNIQUE("page_token_hash")
);
--> statement-breakpoint
CREATE TABLE "checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"link_id" text NOT NULL,
	"integrator_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"amount_minor" bigint,
	"currency" text NOT NULL,
	"description" text,
	"merchant_reference_id" text,
	"system_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"callback_url" text,
	"notify_user" boolean DEFAULT false NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"processing_at" timestamp with time zone,
	"payment_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"locked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkout_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"locked_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE TABLE "integrators" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"secret_enc" text NOT NULL,
	"webhook_secret_enc" text NOT NULL,
	"previous_webhook_secret_enc" text,
	"webhook_secret_rotated_at" timestamp with time zone,
	"webhook_secret_seed_sha256" text,
	"refund_capabilities" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integrators_email_unique" UNIQUE("email"),
	CONSTRAINT "integrators_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "links" (
	"id" text PRIMARY KEY NOT NULL,
	"integrator_id" text NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"currency" text NOT NULL,
	"amount_minor" bigint,
	"min_amount_minor" bigint,
	"max_amount_minor" bigint,
	"brand_color" text,
	"logo_asset_id" text,
	"labels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"callback_url" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "links_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "outbox_events" (
	"id" text PRIMARY KEY NOT NULL,
	"integrator_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"callback_url" text,
	"callback_state" text DEFAULT 'none' NOT NULL,
	"callback_attempts" integer DEFAULT 0 NOT NULL,
	"callback_next_at" timestamp with time zone,
	"callback_locked_until" timestamp with time zone,
	"callback_delivered_at" timestamp with time zone,
	"email_to" text,
	"email_state" text DEFAULT 'none' NOT NULL,
	"email_attempts" integer DEFAULT 0 NOT NULL,
	"email_next_at" timestamp with time zone,
	"email_locked_until" timestamp with time zone,
	"email_sent_at" timestamp with time zone,
	"email_last_error" text
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"integrator_id" text NOT NULL,
	"link_id" text,
	"checkout_session_id" text,
	"schedule_run_id" text,
	"card_registration_reference" uuid,
	"status" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"refunded_minor" bigint DEFAULT 0 NOT NULL,
	"refund_count" integer DEFAULT 0 NOT NULL,
	"refund_reserved_minor" bigint DEFAULT 0 NOT NULL,
	"description" text,
	"merchant_reference_id" text,
	"other_references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"customer" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"customer_email" text,
	"callback_url" text,
	"notify_user" boolean DEFAULT false NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"card_fingerprint" text,
	"acquirer_reference" text,
	"failure_code" text,
	"failure_message" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "payments_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"integrator_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"notify_user" boolean DEFAULT false NOT NULL,
	"acquirer_reference" text,
	"failure_code" text,
	"failure_message" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"succeeded_at" timestamp with time zone,
	"failed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"refunded_minor" bigint DEFAULT 0 NOT NULL,
	"behaviour" text DEFAULT 'normal' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_operations" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"operation" text NOT NULL,
	"request_hash" text NOT NULL,
	"result" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_vault" (
	"token" text PRIMARY KEY NOT NULL,
	"number_enc" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedule_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"schedule_id" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"payment_id" text,
	"last_failure_code" text,
	"last_failure_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" text PRIMARY KEY NOT NULL,
	"integrator_id" text NOT NULL,
	"card_registration_reference" uuid NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"recurrence" jsonb NOT NULL,
	"cron_pattern" text NOT NULL,
	"time_offset" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"description" text,
	"merchant_reference_id" text,
	"other_references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"callback_url" text,
	"notify_user" boolean DEFAULT false NOT NULL,
	"customer_ip_address" text,
	"payload_hash" text NOT NULL,
	"next_run_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	"suspended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"latency_ms" integer,
	"status_code" integer,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_registrations" ADD CONSTRAINT "card_registrations_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "links" ADD CONSTRAINT "links_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "links" ADD CONSTRAINT "links_logo_asset_id_assets_id_fk" FOREIGN KEY ("logo_asset_id") REFERENCES "public"."assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_events" ADD CONSTRAINT "outbox_events_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_checkout_session_id_checkout_sessions_id_fk" FOREIGN KEY ("checkout_session_id") REFERENCES "public"."checkout_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_card_registration_reference_card_registrations_reference_fk" FOREIGN KEY ("card_registration_reference") REFERENCES "public"."card_registrations"("reference") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_event_id_outbox_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."outbox_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_registrations_integrator_idx" ON "card_registrations" USING btree ("integrator_id");--> statement-breakpoint
CREATE INDEX "checkout_sessions_link_idx" ON "checkout_sessions" USING btree ("link_id");--> statement-breakpoint
CREATE INDEX "idempotency_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "outbox_integrator_created_idx" ON "outbox_events" USING btree ("integrator_id","created_at","id");--> statement-breakpoint
CREATE INDEX "outbox_callback_due_idx" ON "outbox_events" USING btree ("callback_next_at") WHERE callback_state = 'pending';--> statement-breakpoint
CREATE INDEX "outbox_email_due_idx" ON "outbox_events" USING btree ("email_next_at") WHERE email_state = 'pending';--> statement-breakpoint
CREATE INDEX "payments_integrator_created_idx" ON "payments" USING btree ("integrator_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_session_idx" ON "payments" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "refunds_pending_idx" ON "refunds" USING btree ("created_at") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_runs_occurrence_idx" ON "schedule_runs" USING btree ("schedule_id","due_at");--> statement-breakpoint
CREATE INDEX "schedule_runs_pending_idx" ON "schedule_runs" USING btree ("next_attempt_at") WHERE status in ('pending', 'retrying');--> statement-breakpoint
CREATE UNIQUE INDEX "schedules_payload_idx" ON "schedules" USING btree ("integrator_id","payload_hash");--> statement-breakpoint
CREATE INDEX "schedules_due_idx" ON "schedules" USING btree ("next_run_at") WHERE status = 'active';--> statement-breakpoint
CREATE INDEX "webhook_attempts_event_idx" ON "webhook_attempts" USING btree ("event_id");