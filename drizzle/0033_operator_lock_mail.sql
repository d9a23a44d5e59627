ALTER TABLE "console_mail" ALTER COLUMN "integrator_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "console_mail" ADD COLUMN "operator_id" text;--> statement-breakpoint
ALTER TABLE "console_mail" ADD CONSTRAINT "console_mail_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;