ALTER TABLE "campaigns" ADD COLUMN "preview_text" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "document" jsonb;