ALTER TABLE "sends" DROP CONSTRAINT "sends_workspace_id_workspaces_id_fk";
--> statement-breakpoint
ALTER TABLE "sends" DROP CONSTRAINT "sends_contact_id_contacts_id_fk";
--> statement-breakpoint
DROP INDEX "sends_provider_message_idx";--> statement-breakpoint
CREATE INDEX "sends_provider_message_idx" ON "sends" USING btree ("provider_message_id") WHERE "sends"."provider_message_id" is not null;