/** The fields every email.* event carries (spec, Events: payload base). */
export function emailEventBase(
  send: { id: string; campaignId: string; contactId: string; email: string },
  campaignName: string,
  occurredAt: Date,
) {
  return {
    send_id: send.id,
    campaign_id: send.campaignId,
    campaign_name: campaignName,
    contact_id: send.contactId,
    email: send.email,
    occurred_at: occurredAt.toISOString(),
  };
}
