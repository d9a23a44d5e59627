CREATE TABLE "staff_refund_caps" (
	"integrator_id" text NOT NULL,
	"currency" text NOT NULL,
	"per_refund_minor" bigint,
	"per_day_minor" bigint,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "staff_refund_caps_integrator_id_currency_pk" PRIMARY KEY("integrator_id","currency")
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "requested_by_user_id" text;--> statement-breakpoint
ALTER TABLE "staff_refund_caps" ADD CONSTRAINT "staff_refund_caps_integrator_id_integrators_id_fk" FOREIGN KEY ("integrator_id") REFERENCES "public"."integrators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_requested_by_idx" ON "refunds" USING btree ("requested_by_user_id","currency","created_at") WHERE requested_by_user_id is not null;