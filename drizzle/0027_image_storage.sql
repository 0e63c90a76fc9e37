ALTER TABLE "images" ALTER COLUMN "data" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "storage" text DEFAULT 'database' NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_bytes_stored" CHECK (("images"."storage" = 'database' and "images"."data" is not null) or ("images"."storage" = 's3' and "images"."storage_key" is not null and "images"."data" is null));