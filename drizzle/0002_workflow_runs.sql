CREATE TABLE "workflow_crons" (
	"function_id" text PRIMARY KEY NOT NULL,
	"cron" text NOT NULL,
	"next_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_runs" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"function_id" text NOT NULL,
	"event" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"steps" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"step_order" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"wake_at" timestamp (3) with time zone NOT NULL,
	"lease_until" timestamp (3) with time zone,
	"result" jsonb,
	"error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "workflow_runs_due_idx" ON "workflow_runs" USING btree ("status","wake_at");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_runs_function_event_key" ON "workflow_runs" USING btree ("function_id",("event"->>'id'));