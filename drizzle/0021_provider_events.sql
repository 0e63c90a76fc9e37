CREATE TABLE "provider_events" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"provider_event_id" text NOT NULL,
	"raw" text NOT NULL,
	"event" jsonb,
	"workspace_id" text COLLATE "C",
	"state" text DEFAULT 'received' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"received_at" timestamp (3) with time zone NOT NULL,
	"applied_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "suppression_lifts" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"workspace_id" text COLLATE "C" NOT NULL,
	"suppression_id" text COLLATE "C" NOT NULL,
	"email" text,
	"domain" text,
	"reason" text NOT NULL,
	"evidence_event_id" text COLLATE "C",
	"lift_reason" text NOT NULL,
	"lifted_by" text NOT NULL,
	"suppressed_at" timestamp (3) with time zone NOT NULL,
	"lifted_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "suppressions" ADD COLUMN "evidence_event_id" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppression_lifts" ADD CONSTRAINT "suppression_lifts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppression_lifts" ADD CONSTRAINT "suppression_lifts_evidence_event_id_provider_events_id_fk" FOREIGN KEY ("evidence_event_id") REFERENCES "public"."provider_events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_events_provider_event_key" ON "provider_events" USING btree ("provider","provider_event_id");--> statement-breakpoint
CREATE INDEX "provider_events_state_idx" ON "provider_events" USING btree ("state","received_at");--> statement-breakpoint
CREATE INDEX "suppression_lifts_workspace_idx" ON "suppression_lifts" USING btree ("workspace_id","email");--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_evidence_event_id_provider_events_id_fk" FOREIGN KEY ("evidence_event_id") REFERENCES "public"."provider_events"("id") ON DELETE set null ON UPDATE no action;