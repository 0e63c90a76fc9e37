CREATE TABLE "automation_branch_arms" (
	"entry_id" text COLLATE "C" NOT NULL,
	"automation_id" text COLLATE "C" NOT NULL,
	"step_index" integer NOT NULL,
	"arm" text NOT NULL,
	"decided_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "automation_branch_arms_entry_id_step_index_pk" PRIMARY KEY("entry_id","step_index")
);
--> statement-breakpoint
DROP INDEX "automation_entries_contact_key";--> statement-breakpoint
DROP INDEX "automation_entries_contact_idx";--> statement-breakpoint
ALTER TABLE "automation_sends" ADD COLUMN "opened_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "automation_sends" ADD COLUMN "human_opened_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "automation_sends" ADD COLUMN "clicked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "automation_sends" ADD COLUMN "human_clicked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "automation_branch_arms" ADD CONSTRAINT "automation_branch_arms_entry_id_automation_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."automation_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_branch_arms" ADD CONSTRAINT "automation_branch_arms_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automation_branch_arms_figures_idx" ON "automation_branch_arms" USING btree ("automation_id","step_index");--> statement-breakpoint
CREATE UNIQUE INDEX "automation_entries_active_key" ON "automation_entries" USING btree ("automation_id","contact_id") WHERE "automation_entries"."status" = 'active';--> statement-breakpoint
CREATE INDEX "automation_entries_contact_idx" ON "automation_entries" USING btree ("contact_id","automation_id");