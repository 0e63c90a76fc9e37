ALTER TABLE "subscriptions" ADD COLUMN "origin" jsonb;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "consent_asserted_by" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "consent_asserted_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_consent_asserted_by_users_id_fk" FOREIGN KEY ("consent_asserted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;