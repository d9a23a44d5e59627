DROP INDEX "card_registrations_integrator_idx";--> statement-breakpoint
DROP INDEX "payments_integrator_created_idx";--> statement-breakpoint
DROP INDEX "refunds_payment_idx";--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "seed_sha256" text;--> statement-breakpoint
CREATE INDEX "card_registrations_integrator_status_idx" ON "card_registrations" USING btree ("integrator_id","status","created_at","reference");--> statement-breakpoint
CREATE INDEX "card_registrations_integrator_email_idx" ON "card_registrations" USING btree ("integrator_id",lower("customer_email"),"created_at","reference");--> statement-breakpoint
CREATE INDEX "links_integrator_created_idx" ON "links" USING btree ("integrator_id","created_at","id");--> statement-breakpoint
CREATE INDEX "outbox_integrator_type_idx" ON "outbox_events" USING btree ("integrator_id","type","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_integrator_status_idx" ON "payments" USING btree ("integrator_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_link_created_idx" ON "payments" USING btree ("link_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_integrator_reference_idx" ON "payments" USING btree ("integrator_id","merchant_reference_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_integrator_email_idx" ON "payments" USING btree ("integrator_id",lower("customer_email"),"created_at","id");--> statement-breakpoint
CREATE INDEX "refunds_integrator_created_idx" ON "refunds" USING btree ("integrator_id","created_at","id");--> statement-breakpoint
CREATE INDEX "refunds_integrator_status_idx" ON "refunds" USING btree ("integrator_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "schedules_integrator_created_idx" ON "schedules" USING btree ("integrator_id","created_at","id");--> statement-breakpoint
CREATE INDEX "schedules_integrator_status_idx" ON "schedules" USING btree ("integrator_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "schedules_integrator_reference_idx" ON "schedules" USING btree ("integrator_id","merchant_reference_id","created_at","id");--> statement-breakpoint
CREATE INDEX "schedules_card_created_idx" ON "schedules" USING btree ("card_registration_reference","created_at","id");--> statement-breakpoint
CREATE INDEX "card_registrations_integrator_idx" ON "card_registrations" USING btree ("integrator_id","created_at","reference");--> statement-breakpoint
CREATE INDEX "payments_integrator_created_idx" ON "payments" USING btree ("integrator_id","created_at","id");--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id","created_at","id");