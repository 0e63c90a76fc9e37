ALTER TABLE "sending_domains" ADD COLUMN "state" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "sending_domains" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "sending_domains" ADD COLUMN "carrier_domain_id" text;--> statement-breakpoint
ALTER TABLE "sending_domains" ADD COLUMN "carrier_records" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sending_domains" ADD COLUMN "records" jsonb DEFAULT '[]'::jsonb NOT NULL;