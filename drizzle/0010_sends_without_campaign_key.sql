ALTER TABLE "sends" DROP CONSTRAINT "sends_campaign_id_campaigns_id_fk";
