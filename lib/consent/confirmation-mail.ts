import { escapeHtml } from "@/lib/mail/escape-html";

interface ConfirmationMailInput {
  brand: { name: string; legalName: string; postalAddress: string; websiteUrl: string };
  topic: { name: string; description: string };
  confirmUrl: string;
}

/** The double opt-in mail: one clear link, who is asking, and what happens if the reader does nothing. */
export function renderConfirmationMail({ brand, topic, confirmUrl }: ConfirmationMailInput) {
  const subject = `Confirm your subscription to ${topic.name}`;
  const text = [
    `Please confirm that you want to receive ${topic.name} from ${brand.name}.`,
    topic.description,
    "",
    `Confirm: ${confirmUrl}`,
    "",
    "If you did not ask for this, ignore this message: you will not be subscribed. The link works for 14 days.",
    "",
    `${brand.legalName}, ${brand.postalAddress}`,
    brand.websiteUrl,
  ]
    .filter((line) => line !== undefined)
    .join("\n");
  const e = escapeHtml;
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2330;line-height:1.5">
<p>Please confirm that you want to receive <strong>${e(topic.name)}</strong> from ${e(brand.name)}.</p>
${topic.description ? `<p>${e(topic.description)}</p>` : ""}
<p><a href="${e(confirmUrl)}" style="display:inline-block;padding:10px 18px;background:#2447c5;color:#fff;text-decoration:none;border-radius:6px">Yes, subscribe me</a></p>
<p style="color:#5b6475">If you did not ask for this, ignore this message: you will not be subscribed. The link works for 14 days.</p>
<p style="color:#5b6475;font-size:13px">${e(brand.legalName)}, ${e(brand.postalAddress)}<br><a href="${e(brand.websiteUrl)}">${e(brand.websiteUrl)}</a></p>
</body></html>`;
  return { subject, text, html };
}
