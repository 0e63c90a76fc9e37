ALTER TABLE "workspaces" ADD COLUMN "review_rejected_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "review_note" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_operator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "review_note" text;